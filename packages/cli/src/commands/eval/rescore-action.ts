/**
 * What `vf eval rescore` does: reads the run, loads its environment (or `--env`) with the run's
 * arguments, scores the rows again with core's `rescoreRun`, and prints what changed.
 */
import { type RescoreOptions, type RescoreResult, rescoreRun } from "@vf-rl/core/checks";
import { EnvironmentNotFoundError } from "@vf-rl/core/errors";
import { findEnvironment, loadEnvironmentById, loadTaskset } from "@vf-rl/core/loading";
import { formatWarning, readRun } from "@vf-rl/core/results";
import { UsageError } from "../../cli-errors.ts";
import type { Output } from "../../terminal/output.ts";
import type { RescoreFlags } from "./eval-rescore.ts";
import { formatRescore } from "./rescore-summary.ts";

/** Runs `vf eval rescore RUN_DIR`; errors are thrown for the command's one-line report. */
export async function rescoreCommand(runDir: string, flags: RescoreFlags, io: Output): Promise<void> {
  const run = await readRun(runDir);
  for (const warning of run.warnings) io.err(`warning: ${formatWarning(warning)}`);
  const envId = flags.env ?? run.metadata.env_id;
  const envDir = flags.envDirPath ? { envDir: flags.envDirPath } : {};
  let found: ReturnType<typeof findEnvironment>;
  try {
    found = findEnvironment(envId, envDir);
  } catch (error) {
    // The run names its environment by id; one evaluated from a folder elsewhere is found by --env.
    if (error instanceof EnvironmentNotFoundError && flags.env === undefined) {
      throw new UsageError(`${error.message}; or name the run's environment with --env <id|folder>`);
    }
    throw error;
  }
  let result: RescoreResult;
  if (found.packageJson.vf.kind === "taskset") {
    // An agent run: the taskset scores the saved traces, or says in one line that it needs the agent's folder.
    const { taskset } = await loadTaskset(found, run.metadata.env_args);
    result = await rescoreRun(run, { type: "taskset", taskset }, rescoreOptions(flags));
  } else {
    const { env } = await loadEnvironmentById(envId, { args: run.metadata.env_args, ...envDir });
    try {
      result = await rescoreRun(run, { type: "environment", env }, rescoreOptions(flags));
    } finally {
      await env.teardown();
    }
  }
  if (flags.json) {
    io.out(JSON.stringify({ run_dir: result.runDir, metadata: result.metadata, diff: result.diff }));
  } else {
    io.out(formatRescore(result));
  }
}

/** Core's options from the flags. */
function rescoreOptions(flags: RescoreFlags): RescoreOptions {
  return { top: flags.top, ...(flags.output ? { dir: flags.output } : {}) };
}
