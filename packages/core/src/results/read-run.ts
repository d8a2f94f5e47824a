/**
 * Loading a saved run: metadata.json and results.jsonl, written by vf or by any verifiers version
 * (see normalize-metadata.ts and normalize-row.ts for the older shapes, and fixtures/ for a run in each).
 *
 * @example
 * const { metadata, records, warnings } = await readRun("outputs/evals/gsm8k--gpt-4.1-mini/1a2b3c4d");
 * for (const w of warnings) console.warn(formatWarning(w));
 */

import { summarizeRun } from "../metrics/summarize-run.ts";
import type { RolloutRecord } from "../records/rollout-record.ts";
import type { RunMetadata, RunStatus } from "../records/run-metadata.ts";
import { readMetadata } from "./read-metadata.ts";
import { firstOfEachRollout, readRecords } from "./read-records.ts";
import type { ReadWarning } from "./read-warning.ts";
import { lockOwner } from "./run-lock.ts";

/** A run as loaded from disk. */
export interface LoadedRun {
  dir: string;
  /**
   * The saved metadata, except: `status` as it is now (see `runStatus`), and `avg_reward`,
   * `avg_metrics` and `avg_error` recomputed from the rows (verifiers wrote placeholders, 0.0 and {},
   * while a run was in progress, and a run stopped early never got its final values).
   */
  metadata: RunMetadata;
  /** Every valid row, in file order, each rollout once (the first of any repeats). */
  records: RolloutRecord[];
  /** Lines skipped, changed or repeated on the way, with line numbers; never fatal. */
  warnings: ReadWarning[];
}

/**
 * Reads and validates a run folder. Malformed rows are skipped and repeated rollouts kept once, each
 * reported in `warnings`; a missing or invalid metadata.json, or a missing results.jsonl, is a
 * UserError naming the path.
 */
export async function readRun(dir: string): Promise<LoadedRun> {
  const { metadata, hasStatus } = await readMetadata(dir);
  const { rows, warnings } = await readRecords(dir, Object.keys(metadata.avg_metrics));
  const records = firstOfEachRollout(rows).map((row) => row.record);
  metadata.status = await runStatus(dir, hasStatus ? metadata.status : null, metadata, records.length);
  const { aggregates } = summarizeRun(records, { rolloutsPerExample: metadata.rollouts_per_example });
  metadata.avg_reward = aggregates.avg_reward;
  metadata.avg_metrics = aggregates.avg_metrics;
  metadata.avg_error = aggregates.avg_error;
  return { dir, metadata, records, warnings };
}

/**
 * A run's status as it is now. A run saved "running" is "interrupted" unless a live process still
 * holds its lock (one killed with SIGKILL never wrote its last status). A verifiers run (no status,
 * `saved` null) is "complete" when it holds every planned rollout, else "interrupted".
 */
export async function runStatus(
  dir: string,
  saved: RunStatus | null,
  metadata: RunMetadata,
  distinctRows: number,
): Promise<RunStatus> {
  if (saved === null) return isFull(metadata, distinctRows) ? "complete" : "interrupted";
  if (saved !== "running") return saved;
  const owner = await lockOwner(dir);
  // A lock held on another machine cannot be checked: trust it.
  return owner && owner.state !== "dead" ? "running" : "interrupted";
}

/** The mean reward of some rows; 0 for none. */
export function meanReward(records: readonly RolloutRecord[]): number {
  if (records.length === 0) return 0;
  return records.reduce((sum, record) => sum + record.reward, 0) / records.length;
}

/** Whether `rows` rows are all the run planned (`num_examples` < 0 means "all", never known short). */
export function isFull(metadata: RunMetadata, rows: number): boolean {
  if (metadata.num_examples < 0) return true;
  return rows >= metadata.num_examples * metadata.rollouts_per_example;
}
