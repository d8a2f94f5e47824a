/**
 * What `vf eval rescore` does: reads the run, loads its environment (or `--env`) with the run's
 * arguments, scores the rows again with core's `rescoreRun`, and prints what changed.
 */
import { type RescoreResult, rescoreRun } from "@vf-rl/core/checks";
import { NotRescorableError } from "@vf-rl/core/errors";
import { findEnvironment, loadEnvironmentById } from "@vf-rl/core/loading";
import { formatWarning, readRun } from "@vf-rl/core/results";
import type { Output } from "../../terminal/output.ts";
import type { RescoreFlags } from "./eval-rescore.ts";
import { formatRescore } from "./rescore-summary.ts";

/** Runs `vf eval rescore RUN_DIR`; errors are thrown for the command's one-line report. */
export async function rescoreCommand(runDir: string, flags: RescoreFlags, io: Output): Promise<void> {
  const run = await readRun(runDir);
  for (const warning of run.warnings) io.err(`warning: ${formatWarning(warning)}`);
  const envId = flags.env ?? run.metadata.env_id;
  const envDir = flags.envDirPath ? { envDir: flags.envDirPath } : {};
  const found = findEnvironment(envId, envDir);
  if (found.packageJson.vf.kind === "taskset") {
    throw new NotRescorableError(
      `${runDir} is an agent run of the taskset ${envId}, whose score was read from the agent's working folder, which a saved run does not keep: run the evaluation again to score it again`,
    );
  }
  const { env } = await loadEnvironmentById(envId, { args: run.metadata.env_args, ...envDir });
  let result: RescoreResult;
  try {
    result = await rescoreRun(run, env, { top: flags.top, ...(flags.output ? { dir: flags.output } : {}) });
  } finally {
    await env.teardown();
  }
  if (flags.json) {
    io.out(JSON.stringify({ run_dir: result.runDir, metadata: result.metadata, diff: result.diff }));
  } else {
    io.out(formatRescore(result));
  }
}
