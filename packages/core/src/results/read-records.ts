/**
 * Reading results.jsonl of a run folder into validated records, from vf or any verifiers version.
 * A line that is not JSON or not a valid row is skipped and reported with its line number; nothing
 * about one bad line stops the others from loading.
 */
import { join } from "node:path";
import { UserError } from "../errors.ts";
import { isJsonObject } from "../records/json-object.ts";
import { normalizeRow } from "../records/normalize-row.ts";
import { RolloutRecord } from "../records/rollout-record.ts";
import { issueLines } from "../schema-issues.ts";
import type { ReadWarning } from "./read-warning.ts";
import { type RawLine, readResultLines } from "./results-file.ts";
import { RESULTS_FILE } from "./run-directory.ts";

/** A loaded row with the line it came from, so a caller can rewrite the file keeping the originals. */
export interface LoadedRow extends RawLine {
  record: RolloutRecord;
}

/** The valid rows of a results file, with what was skipped. */
export interface LoadedRecords {
  path: string;
  rows: LoadedRow[];
  warnings: ReadWarning[];
  /** The torn last line a crash left, if any (already reported in `warnings`). */
  torn: RawLine | null;
}

/**
 * Loads `<dir>/results.jsonl`. `metricNames` are the metric names of the run's metadata, used to
 * recover metrics from older rows that only have them flattened. A missing file is a UserError.
 * Every valid row is returned, repeated rollouts included; each repeat also gets a warning marked
 * `duplicate` (see `firstOfEachRollout`).
 */
export async function readRecords(dir: string, metricNames: Iterable<string> = []): Promise<LoadedRecords> {
  return readRecordsFile(join(dir, RESULTS_FILE), metricNames);
}

/** Loads a results file by its own path (any name), as `readRecords` does a run folder's. */
export async function readRecordsFile(
  path: string,
  metricNames: Iterable<string> = [],
): Promise<LoadedRecords> {
  const { lines, torn } = await readResultLines(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
    throw new UserError(
      `${path} does not exist: point at a run folder that holds metadata.json and results.jsonl`,
    );
  });
  const names = new Set(metricNames);
  const warnings: ReadWarning[] = [];
  const rows: LoadedRow[] = [];
  // Older rows carry no rollout index: the n-th row of an example is its rollout n.
  const seenPerExample = new Map<number, number>();
  const firstLineOf = new Map<string, number>();

  for (const raw of lines) {
    const warn = (message: string) => warnings.push({ file: path, line: raw.line, message });
    let value: unknown;
    try {
      value = JSON.parse(raw.text);
    } catch (error) {
      warn(`not JSON (${(error as Error).message}); skipped`);
      continue;
    }
    if (!isJsonObject(value)) {
      warn("not a JSON object; skipped");
      continue;
    }
    const { row, notes } = normalizeRow(value, names);
    for (const note of notes) warn(note);
    if (typeof row.example_id === "number") {
      const seen = seenPerExample.get(row.example_id) ?? 0;
      seenPerExample.set(row.example_id, seen + 1);
      if (row.rollout_index === undefined) row.rollout_index = seen;
    }
    const parsed = RolloutRecord.safeParse(row);
    if (!parsed.success) {
      const issues = issueLines(parsed.error, "(row)").slice(0, 3);
      warn(`not a valid rollout row (${issues.join("; ")}); skipped`);
      continue;
    }
    const { example_id: exampleId, rollout_index: rolloutIndex } = parsed.data;
    const key = `${exampleId}:${rolloutIndex}`;
    const firstLine = firstLineOf.get(key);
    if (firstLine === undefined) firstLineOf.set(key, raw.line);
    else {
      warnings.push({
        file: path,
        line: raw.line,
        message: `repeats example ${exampleId} rollout ${rolloutIndex} of line ${firstLine} (two writers appended to this run); the first is used, and resuming removes the copy`,
        duplicate: { exampleId, rolloutIndex, firstLine },
      });
    }
    rows.push({ ...raw, record: parsed.data });
  }
  if (torn) {
    warnings.push({
      file: path,
      line: torn.line,
      message: "last line cut short (the run stopped mid-write); skipped, and removed on resume",
    });
  }
  return { path, rows, warnings, torn };
}

/** The rows with each (example_id, rollout_index) only once: the first of any repeats. */
export function firstOfEachRollout(rows: readonly LoadedRow[]): LoadedRow[] {
  const seen = new Set<string>();
  return rows.filter((row) => {
    const key = `${row.record.example_id}:${row.record.rollout_index}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
