/**
 * Deciding how to continue a saved run (`vf eval -R`): which run folder, which rows it keeps and
 * which rollouts are already done. Preparing the folder is part of the plan, done while holding the
 * folder's lock (see run-lock.ts; the plan hands it to the `RunWriter`): a torn last line is cut off,
 * and rows that do not belong (a rollout index ≥ r, a second copy of one rollout, or a rollout that
 * failed with an infrastructure error or was cut off by a stopped run, which is run again; see
 * needs-rerun.ts) are removed from results.jsonl, so the
 * resumed run ends with exactly one row per rollout.
 *
 * @example
 * const plan = await planResume({ outputDir: "outputs", envId, model, settings });
 * if (plan.type === "resume") inputs = inputs.filter((i) => !plan.completed.get(i.exampleId)?.has(i.rolloutIndex));
 */
import { readdir, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { describeMismatches, ResumeSettingsMismatchError, UserError } from "../errors.ts";
import type { RolloutRecord } from "../records/rollout-record.ts";
import type { RunMetadata } from "../records/run-metadata.ts";
import { writeFileAtomic } from "./atomic-file.ts";
import { needsRerun } from "./needs-rerun.ts";
import { readMetadata } from "./read-metadata.ts";
import { type LoadedRow, readRecords } from "./read-records.ts";
import type { ReadWarning } from "./read-warning.ts";
import { readResultLines, repairTail, type TailRepair } from "./results-file.ts";
import { type ResumeSettings, settingsMismatches } from "./resume-settings.ts";
import { envModelDirectory, RESULTS_FILE } from "./run-directory.ts";
import { acquireRunLock, type RunLock } from "./run-lock.ts";

/** The run about to start, and where its earlier runs would be. */
export interface PlanResumeOptions {
  /** The base folder holding `evals/`, searched when `runDir` is not given. */
  outputDir: string;
  envId: string;
  model: string;
  settings: ResumeSettings;
  /**
   * The run's name, when it has one: its runs are under `<name>--<model>` instead of `<env>--<model>`
   * (an agent run's, `settings.harness`, under `<env>--<model>--<harness>`).
   */
  name?: string;
  /** A run folder the user named: it must match, or planning fails naming each difference. */
  runDir?: string;
}

/** A run to continue. */
export interface ResumePlan {
  type: "resume";
  dir: string;
  runId: string;
  /** The saved metadata, as it was before this resume. */
  metadata: RunMetadata;
  /** The rows kept, in file order: at most one per (example_id, rollout_index), index < r. */
  records: RolloutRecord[];
  /** The rollouts already done: skip these. */
  completed: CompletedRollouts;
  /** Rows removed from results.jsonl (index ≥ r, duplicates, infrastructure failures). */
  dropped: number;
  /** Rollouts whose saved row failed with an error `needsRerun` accepts: removed, to be run again. */
  rerun: number;
  /** The folder's lock, held from planning on: pass it to `RunWriter.open`, which releases it on close. */
  lock: RunLock;
  /** What was done to the end of results.jsonl ("truncated" when a torn line was cut off). */
  tail: TailRepair;
  /** Lines the reader skipped (they stay in the file, untouched). */
  warnings: ReadWarning[];
}

/** No run to continue; `candidates` says why each saved run of this env and model was passed over. */
export interface NothingToResume {
  type: "none";
  candidates: Array<{ dir: string; reason: string }>;
}

/**
 * Finds the run to continue: the named `runDir`, or else the latest run under
 * `<outputDir>/evals/<env>--<model>` (`--<harness>` for an agent run) whose settings match (see
 * `settingsMismatches`) and that is not finished (status "running" or "interrupted", or fewer rows
 * than now requested).
 */
export async function planResume(options: PlanResumeOptions): Promise<ResumePlan | NothingToResume> {
  const identity = { envId: options.envId, model: options.model, settings: options.settings };
  if (options.runDir !== undefined) {
    const { metadata } = await readMetadata(options.runDir);
    const mismatches = settingsMismatches(metadata, identity);
    if (mismatches.length > 0) {
      throw new ResumeSettingsMismatchError(options.runDir, mismatches);
    }
    return prepare(options.runDir, metadata);
  }

  const candidates: NothingToResume["candidates"] = [];
  let best: { dir: string; metadata: RunMetadata; started: number } | null = null;
  const folder = {
    outputDir: options.outputDir,
    envId: options.name ?? options.envId,
    model: options.model,
    harness: options.settings.harness,
  };
  for (const dir of await runFolders(envModelDirectory(folder))) {
    let metadata: RunMetadata;
    let loaded: LoadedRow[];
    try {
      metadata = (await readMetadata(dir)).metadata;
      const mismatches = settingsMismatches(metadata, identity);
      if (mismatches.length > 0) {
        candidates.push({ dir, reason: `settings differ: ${describeMismatches(mismatches)}` });
        continue;
      }
      loaded = (await readRecords(dir, Object.keys(metadata.avg_metrics))).rows;
    } catch (error) {
      // A folder that is not a readable run is passed over, with the reason, not fatal to the search.
      if (!(error instanceof UserError)) throw error;
      candidates.push({ dir, reason: error.message });
      continue;
    }
    // Rollouts that failed for the infrastructure's sake are not done: such a run is unfinished.
    const rows = keptRows(loaded, metadata.rollouts_per_example).kept.length;
    const wanted = options.settings.num_examples * options.settings.rollouts_per_example;
    const unfinished =
      metadata.status !== "complete" || (options.settings.num_examples >= 0 && rows < wanted);
    if (!unfinished) {
      candidates.push({ dir, reason: `finished (${rows} rows)` });
      continue;
    }
    const started = metadata.date ? Date.parse(metadata.date) : Number.NaN;
    const key = Number.isNaN(started) ? (await stat(join(dir, RESULTS_FILE))).mtimeMs : started;
    if (!best || key > best.started || (key === best.started && dir > best.dir))
      best = { dir, metadata, started: key };
  }
  if (!best) return { type: "none", candidates };
  return prepare(best.dir, best.metadata);
}

async function prepare(dir: string, metadata: RunMetadata): Promise<ResumePlan> {
  // The lock comes first: another writer must not append while the file is rewritten.
  const lock = await acquireRunLock(dir);
  try {
    const path = join(dir, RESULTS_FILE);
    const tail = await repairTail(path);
    const loaded = await readRecords(dir, Object.keys(metadata.avg_metrics));
    const { kept, droppedLines, rerun } = keptRows(loaded.rows, metadata.rollouts_per_example);
    if (droppedLines.size > 0) {
      // Rewrite from the original text: unreadable lines stay as they were, only dropped rows go.
      const { lines } = await readResultLines(path);
      const text = lines
        .filter((line) => !droppedLines.has(line.line))
        .map((line) => `${line.text}\n`)
        .join("");
      await writeFileAtomic(path, text);
    }
    const records = kept.map((row) => row.record);
    return {
      type: "resume",
      dir,
      runId: basename(dir),
      metadata,
      records,
      completed: completedRollouts(records),
      dropped: droppedLines.size,
      rerun,
      lock,
      tail,
      // Duplicates are removed here, so the reader's notes about them no longer hold.
      warnings: loaded.warnings.filter((warning) => !warning.duplicate),
    };
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/**
 * One row per (example_id, rollout_index) with index < r: the first that did not fail with an
 * error `needsRerun` accepts. A rollout with only such rows keeps none and counts in `rerun`. Every other
 * row's line goes to `droppedLines`.
 */
function keptRows(
  rows: LoadedRow[],
  r: number,
): { kept: LoadedRow[]; droppedLines: Set<number>; rerun: number } {
  const chosen = new Map<string, LoadedRow>();
  const failedOnly = new Set<string>();
  for (const row of rows) {
    const { rollout_index: index, error } = row.record;
    if (index < 0 || index >= r) continue;
    const key = `${row.record.example_id}:${index}`;
    if (chosen.has(key)) continue;
    if (needsRerun(error)) failedOnly.add(key);
    else {
      chosen.set(key, row);
      failedOnly.delete(key);
    }
  }
  const keptLines = new Set([...chosen.values()].map((row) => row.line));
  const kept = rows.filter((row) => keptLines.has(row.line));
  const droppedLines = new Set(rows.filter((row) => !keptLines.has(row.line)).map((row) => row.line));
  return { kept, droppedLines, rerun: failedOnly.size };
}

async function runFolders(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((e) => e.isDirectory()).map((e) => join(dir, e.name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

// Which rollouts of a run are already saved, so a resumed run does only the rest.

/** Example id → the rollout indices saved for it. */
export type CompletedRollouts = Map<number, Set<number>>;

/** The saved (example_id, rollout_index) pairs of some records. */
export function completedRollouts(records: readonly RolloutRecord[]): CompletedRollouts {
  const completed: CompletedRollouts = new Map();
  for (const record of records) {
    const indices = completed.get(record.example_id);
    if (indices) indices.add(record.rollout_index);
    else completed.set(record.example_id, new Set([record.rollout_index]));
  }
  return completed;
}

/** Example ids whose group is whole: every rollout index 0..r-1 is saved. */
export function completedGroups(records: readonly RolloutRecord[], rolloutsPerExample: number): Set<number> {
  const groups = new Set<number>();
  for (const [exampleId, indices] of completedRollouts(records)) {
    let whole = true;
    for (let i = 0; i < rolloutsPerExample && whole; i++) whole = indices.has(i);
    if (whole) groups.add(exampleId);
  }
  return groups;
}
