/**
 * Loading a saved run: metadata.json and results.jsonl, written by vf or by any verifiers version
 * (the fixtures in shared/fixtures/verifiers-outputs use its older layout).
 *
 * @example
 * const { metadata, records, warnings } = await readRun("outputs/evals/gsm8k--gpt-4.1-mini/1a2b3c4d");
 * for (const w of warnings) console.warn(formatWarning(w));
 */
import { readMetadata } from "./read-metadata.ts";
import { readRecords } from "./read-records.ts";
import type { ReadWarning } from "./read-warning.ts";
import type { RolloutRecord } from "./rollout-record.ts";
import type { RunMetadata } from "./run-metadata.ts";

/** A run as loaded from disk. */
export interface LoadedRun {
  dir: string;
  metadata: RunMetadata;
  /** Every valid row, in file order. */
  records: RolloutRecord[];
  /** Lines skipped or changed on the way, with line numbers; never fatal. */
  warnings: ReadWarning[];
}

/**
 * Reads and validates a run folder. Malformed rows are skipped and reported in `warnings`; a missing
 * or invalid metadata.json, or a missing results.jsonl, is a UserError naming the path. A verifiers
 * run has no `status`; it is "complete" when it holds every planned row, else "interrupted".
 */
export async function readRun(dir: string): Promise<LoadedRun> {
  const { metadata, hasStatus } = await readMetadata(dir);
  const { rows, warnings } = await readRecords(dir, Object.keys(metadata.avg_metrics));
  const records = rows.map((row) => row.record);
  if (!hasStatus) metadata.status = isFull(metadata, records.length) ? "complete" : "interrupted";
  return { dir, metadata, records, warnings };
}

/** Whether `rows` rows are all the run planned (`num_examples` < 0 means "all", never known short). */
export function isFull(metadata: RunMetadata, rows: number): boolean {
  if (metadata.num_examples < 0) return true;
  return rows >= metadata.num_examples * metadata.rollouts_per_example;
}
