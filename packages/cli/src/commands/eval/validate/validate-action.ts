/**
 * What `vf eval validate` does: loads the environment (or the taskset, with the runtime its
 * reference solutions are scored in), validates its rows with core's checks, counting prompts with
 * the built-in model's tokenizer against `--max-prompt-tokens` (default: that model's context), and
 * prints the summary: rows checked, references scored, the longest prompt against the limit, then
 * each kind of failure with how many rows and the first few, by id. Returns the exit code: 0 all
 * good, 1 some failed.
 */
import {
  groupFailures,
  type ValidationReport,
  validateEnvironment,
  validateTaskset,
} from "@vf-rl/core/checks";
import { EnvironmentNotFoundError } from "@vf-rl/core/errors";
import { findEnvironment, loadEnvironmentById, loadTaskset } from "@vf-rl/core/loading";
import { EXIT_FAILURE, UsageError } from "../../../cli-errors.ts";
import type { Output } from "../../../terminal/output.ts";
import { builtinContextLength, enginePromptTokens } from "./prompt-tokens.ts";
import type { ValidateFlags } from "./validate-command.ts";

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

/** Why each kind fails, as the summary heads it. */
const HEADINGS = {
  load: "did not load",
  prompt: "prompt did not render",
  too_long: "prompt too long",
  rollout: "reference rollout failed",
  scoring_error: "reward function raised on the reference",
  below_max: "reference below the maximum reward",
} as const;

/** The summary of a validation of `envId`; `limitNote` says where the prompt limit came from. */
function formatValidation(envId: string, report: ValidationReport, limitNote = ""): string {
  const lines: string[] = [];
  const rows = `${report.checked} row${report.checked === 1 ? "" : "s"}`;
  const prompts =
    report.longestPrompt !== null
      ? `; longest prompt ${report.longestPrompt} tokens, limit ${report.maxPromptTokens}${limitNote}`
      : "";
  lines.push(`${envId}: ${rows} checked, ${report.referencesScored} references scored${prompts}`);
  const groups = groupFailures(report.failures);
  if (groups.length === 0) {
    lines.push("all rows pass");
    return lines.join("\n");
  }
  for (const group of groups) {
    // The environment as a whole fails to load: no row to count.
    const rows = group.kind === "load" ? "" : `: ${group.count} row${group.count === 1 ? "" : "s"}`;
    lines.push(`✗ ${HEADINGS[group.kind]}${rows}`);
    for (const { id, message } of group.examples) {
      lines.push(`  ${id === "" ? envId : `row ${id}`}: ${message}`);
    }
    if (group.count > group.examples.length)
      lines.push(`  ... and ${group.count - group.examples.length} more`);
  }
  return lines.join("\n");
}
