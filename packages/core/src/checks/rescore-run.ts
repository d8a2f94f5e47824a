/**
 * `vf eval rescore RUN_DIR`'s work: a saved run scored again with the environment's current rubric,
 * offline, and saved as a new run folder beside it (metadata.json's `rescore_of` names the source),
 * with what changed (rescore-diff.ts). The rows are the saved ones; only rewards, metrics and
 * scoring errors are new. A taskset's agent run is scored from its saved traces when the taskset
 * scores from the trace alone; one that reads the agent's working folder, which a saved run does
 * not keep, is refused with `WorkdirNotSavedError` (rescore-taskset.ts).
 *
 * @example
 * const { env } = await loadEnvironmentById(run.metadata.env_id, { args: run.metadata.env_args });
 * const result = await rescoreRun(run, { type: "environment", env });
 * console.log(result.diff.reward.before, "->", result.diff.reward.after, result.runDir);
 */
import { dirname, join } from "node:path";
import type { Taskset } from "../agents/taskset.ts";
import type { Environment } from "../envs/environment.ts";
import { summarizeRun } from "../metrics/summarize-run.ts";
import type { RolloutRecord } from "../records/rollout-record.ts";
import type { RunMetadata } from "../records/run-metadata.ts";
import type { LoadedRun } from "../results/read-run.ts";
import { newRunId } from "../results/run-directory.ts";
import { RunWriter } from "../results/run-writer.ts";
import { disconnectJudges } from "./offline-judges.ts";
import { type RescoreDiff, rescoreDiff } from "./rescore-diff.ts";
import { rescoreRecords } from "./rescore-records.ts";
import { rescoreTasksetRecords } from "./rescore-taskset.ts";

/** What scores the rows again: the run's environment, or the taskset of an agent run. */
export type RescoreSource<Data> =
  | { type: "environment"; env: Environment<Data> }
  | { type: "taskset"; taskset: Taskset };

/** Options of `rescoreRun`. */
export interface RescoreOptions {
  /** The new run's folder; default a new run id beside the source run. */
  dir?: string;
  /** Largest changes to list; default 5. */
  top?: number;
}

/** A finished rescore: the new run, where it was saved, and what changed. */
export interface RescoreResult {
  runDir: string;
  records: RolloutRecord[];
  metadata: RunMetadata;
  diff: RescoreDiff;
}

/** Scores `run` again with `env`'s rubric and saves it as a new run; see the file comment. */
export async function rescoreRun<Data>(
  run: LoadedRun,
  source: RescoreSource<Data>,
  options: RescoreOptions = {},
): Promise<RescoreResult> {
  const started = Date.now();
  let records: RolloutRecord[];
  if (source.type === "environment") {
    disconnectJudges(source.env.rubric);
    records = await rescoreRecords(source.env, run.records, run.metadata.model);
  } else {
    records = await rescoreTasksetRecords(source.taskset, run.records);
  }
  const runId = newRunId();
  const runDir = options.dir ?? join(dirname(run.dir), runId);
  const { aggregates } = summarizeRun(records, {
    rolloutsPerExample: run.metadata.rollouts_per_example,
    passThreshold: run.metadata.pass_threshold,
  });
  const metadata: RunMetadata = {
    ...run.metadata,
    ...aggregates,
    time: (Date.now() - started) / 1000,
    date: new Date(started).toISOString(),
    run_id: runId,
    // The rows are all there are: the source's planned-but-missing rollouts are not this run's to finish.
    status: "complete",
    rescore_of: { dir: run.dir, ...(run.metadata.run_id ? { run_id: run.metadata.run_id } : {}) },
  };
  const writer = await RunWriter.open({ dir: runDir });
  try {
    await writer.append(records);
    await writer.writeMetadata(metadata);
  } finally {
    await writer.close();
  }
  return { runDir, records, metadata, diff: rescoreDiff(run.records, records, options.top) };
}
