/**
 * What `vf eval validate` does: loads the environment (or the taskset, with the runtime its
 * reference solutions are scored in), validates its rows with core's checks, counting prompts with
 * the built-in model's tokenizer against `--max-prompt-tokens` (default: that model's context), and
 * prints the summary. Returns the exit code: 0 all good, 1 some failed.
 */
import { type ValidationReport, validateEnvironment, validateTaskset } from "@vf-rl/core/checks";
import { EnvironmentNotFoundError } from "@vf-rl/core/errors";
import { findEnvironment, loadEnvironmentById, loadTaskset } from "@vf-rl/core/loading";
import { EXIT_FAILURE, UsageError } from "../../cli-errors.ts";
import type { Output } from "../../terminal/output.ts";
import type { ValidateFlags } from "./eval-validate.ts";
import { builtinContextLength, enginePromptTokens } from "./prompt-tokens.ts";
import { formatValidation } from "./validation-summary.ts";

/** Runs `vf eval validate ENV` and returns its exit code; a load failure is reported, not thrown. */
export async function validateCommand(envId: string, flags: ValidateFlags, io: Output): Promise<number> {
  const envDir = flags.envDirPath ? { envDir: flags.envDirPath } : {};
  let found: ReturnType<typeof findEnvironment>;
  try {
    found = findEnvironment(envId, envDir);
  } catch (error) {
    // Naming no environment is a usage mistake (exit 2), not a row that failed.
    if (error instanceof EnvironmentNotFoundError) throw new UsageError(error.message);
    throw error;
  }
  const options = {
    split: flags.split,
    ...(flags.numExamples !== undefined ? { numExamples: flags.numExamples } : {}),
    countPromptTokens: enginePromptTokens,
    maxPromptTokens: flags.maxPromptTokens ?? builtinContextLength(),
    ...(flags.maxReward !== undefined ? { maxReward: flags.maxReward } : {}),
    onRow: (done: number, total: number) => {
      if (io.isTTY) io.status(`validating ${envId}: ${done}/${total} rows`);
    },
  };
  let report: ValidationReport;
  try {
    if (found.packageJson.vf.kind === "taskset") {
      const { taskset } = await loadTaskset(found, flags.envArgs ?? {});
      const { localRuntime, subprocessRuntime, containerRuntime } = await import("@vf-rl/agents");
      const runtime = flags.runtime ?? "local";
      const runtimes =
        runtime === "subprocess"
          ? subprocessRuntime()
          : runtime === "container"
            ? containerRuntime()
            : localRuntime();
      report = await validateTaskset(taskset, { ...options, runtimes });
    } else {
      const { env } = await loadEnvironmentById(envId, { args: flags.envArgs ?? {}, ...envDir });
      try {
        report = await validateEnvironment(env, options);
      } finally {
        await env.teardown();
      }
    }
  } catch (error) {
    // An environment that does not load is validation's first finding, not a crash.
    const message = error instanceof Error ? error.message : String(error);
    report = {
      checked: 0,
      referencesScored: 0,
      maxReward: 0,
      maxPromptTokens: null,
      longestPrompt: null,
      failures: [{ kind: "load", id: "", message }],
    };
  } finally {
    if (io.isTTY) io.status(null);
  }
  const limitNote =
    flags.maxPromptTokens === undefined
      ? " (the built-in model's context; --max-prompt-tokens N for another model)"
      : "";
  io.out(flags.json ? JSON.stringify(report) : formatValidation(envId, report, limitNote));
  return report.failures.length > 0 ? EXIT_FAILURE : 0;
}
