/**
 * What `vf eval rescore` does: reads the run, loads its environment (or `--env`) with the run's
 * arguments, scores the rows again with core's `rescoreRun`, and prints what changed: where the new
 * run is, the mean reward before → after with how many rollouts changed, each metric likewise, the
 * largest changes by example, and the functions that could not score offline.
 */
import { type RescoreOptions, type RescoreResult, rescoreRun, type ValueChange } from "@vf-rl/core/checks";
import { EnvironmentNotFoundError } from "@vf-rl/core/errors";
import { findEnvironment, loadEnvironmentById, loadTaskset } from "@vf-rl/core/loading";
import { formatWarning, readRun } from "@vf-rl/core/results";
import { UsageError } from "../../../cli-errors.ts";
import type { Output } from "../../../terminal/output.ts";
import type { RescoreFlags } from "./rescore-command.ts";

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

/** The summary of a rescore, one line per fact. */
function formatRescore({ runDir, diff }: RescoreResult): string {
  const lines = [`rescored ${diff.rollouts} rollouts into ${runDir}`];
  lines.push(`reward  ${change(diff.reward)}  (${rollouts(diff.reward.changed, diff.rollouts)})`);
  for (const [name, value] of Object.entries(diff.metrics)) {
    lines.push(`  ${name}  ${change(value)}  (${rollouts(value.changed, diff.rollouts)})`);
  }
  if (diff.largest.length > 0) {
    lines.push("largest changes:");
    for (const c of diff.largest) {
      lines.push(`  example ${c.exampleId} rollout ${c.rolloutIndex}: ${num(c.before)} → ${num(c.after)}`);
    }
  } else {
    lines.push("no reward changed");
  }
  for (const [name, count] of Object.entries(diff.scoringErrors)) {
    lines.push(
      `scoring error in ${name} on ${count} of ${diff.rollouts} rollouts: ${diff.scoringErrorMessages[name]}`,
    );
  }
  return lines.join("\n");
}

function change({ before, after }: ValueChange): string {
  return `${num(before)} → ${num(after)}`;
}

function rollouts(changed: number, total: number): string {
  return changed === 0 ? "unchanged" : `${changed} of ${total} rollouts changed`;
}

/** A mean as three decimals; "absent" for a metric one side does not have. */
function num(value: number): string {
  return Number.isNaN(value) ? "absent" : value.toFixed(3);
}
