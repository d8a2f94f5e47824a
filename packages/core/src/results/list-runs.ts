/**
 * Finding saved runs and describing each in one line (for `vf view` and the Hub), reading only the
 * metadata when it can be trusted and the rows otherwise.
 */
import type { Stats } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { RunsFolderNotFoundError, UserError } from "../errors.ts";
import type { RunStatus } from "../records/run-metadata.ts";
import { foreignLayout, refuseForeignRun } from "./foreign-run.ts";
import { readMetadata } from "./read-metadata.ts";
import { firstOfEachRollout, readRecords } from "./read-records.ts";
import { meanReward, runStatus } from "./read-run.ts";
import { METADATA_FILE, RESULTS_FILE } from "./run-directory.ts";

/** One saved run, summarised. */
export interface RunListing {
  type: "run";
  dir: string;
  runId: string;
  envId: string;
  model: string;
  /** An agent run's harness (metadata `harness`, e.g. "bash"); absent for an environment's own run. */
  harness?: string;
  /** When the run started (metadata `date`, ISO 8601), else when results.jsonl was last written. */
  date: string;
  /** Mean reward over the saved rows (recomputed: the metadata's may be a placeholder). */
  avgReward: number;
  /** Rollouts saved: valid rows, each (example_id, rollout_index) once. */
  rows: number;
  /** Rows that repeat a rollout already saved (two writers appended to the run); 0 normally. */
  duplicates: number;
  numExamples: number;
  rolloutsPerExample: number;
  status: RunStatus;
}

/** A folder that looks like a run but cannot be read; `message` says why and what to do. */
export interface UnreadableRun {
  type: "unreadable";
  dir: string;
  runId: string;
  message: string;
}

/** An entry of `listRuns`. */
export type RunEntry = RunListing | UnreadableRun;

/**
 * Every run under `path`, newest first. `path` may be the output folder (holding `evals/`), the
 * `evals` folder, one `<env>--<model>` folder, or a single run folder. Folders of results in a layout
 * vf does not read (see foreign-run.ts) are listed as unreadable, saying what they are; `path` itself
 * being one is a `ForeignRunError`.
 *
 * The rows are always read: the mean reward and the count come from them (verifiers' metadata may
 * hold placeholders), and repeated rollouts are counted once. A run saved as "running" that no live
 * process owns any more is listed as "interrupted".
 */
export async function listRuns(path: string): Promise<RunEntry[]> {
  if (!(await isDirectory(path))) {
    throw new RunsFolderNotFoundError(path);
  }
  await refuseForeignRun(path);
  const entries = await Promise.all((await runFolders(path)).map(describeRun));
  const time = (entry: RunEntry & { sortKey: number }) => entry.sortKey;
  return entries
    .sort((a, b) => time(b) - time(a) || a.dir.localeCompare(b.dir))
    .map(({ sortKey: _key, ...entry }) => entry as RunEntry);
}

async function runFolders(path: string): Promise<string[]> {
  if (await isRunFolder(path)) return [path];
  const evals = join(path, "evals");
  const root = (await isDirectory(evals)) ? evals : path;
  const children = await subfolders(root);
  const direct = await filterRunFolders(children);
  // `root` was an <env>--<model> folder: its children are runs.
  if (direct.length > 0 && root === path) return direct;
  const nested = await Promise.all(children.map(async (child) => filterRunFolders(await subfolders(child))));
  return nested.flat();
}

async function describeRun(dir: string): Promise<RunEntry & { sortKey: number }> {
  const runId = basename(dir);
  const results = await statOrNull(join(dir, RESULTS_FILE));
  // A run without results.jsonl sorts last.
  const mtime = results?.mtimeMs ?? 0;
  try {
    if (!results) {
      await refuseForeignRun(dir);
      throw new UserError(
        `${join(dir, RESULTS_FILE)} does not exist: the run saved no rows; delete the folder`,
      );
    }
    const { metadata, hasStatus } = await readMetadata(dir);
    const loaded = await readRecords(dir, Object.keys(metadata.avg_metrics));
    const distinct = firstOfEachRollout(loaded.rows).map((row) => row.record);
    const status = await runStatus(dir, hasStatus ? metadata.status : null, metadata, distinct.length);
    const started = metadata.date ? Date.parse(metadata.date) : Number.NaN;
    return {
      type: "run",
      dir,
      runId,
      envId: metadata.env_id,
      model: metadata.model,
      ...(metadata.harness ? { harness: metadata.harness } : {}),
      date: metadata.date ?? new Date(mtime).toISOString(),
      avgReward: meanReward(distinct),
      rows: distinct.length,
      duplicates: loaded.rows.length - distinct.length,
      numExamples: metadata.num_examples,
      rolloutsPerExample: metadata.rollouts_per_example,
      status,
      sortKey: Number.isNaN(started) ? mtime : started,
    };
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return { type: "unreadable", dir, runId, message: error.message, sortKey: mtime };
  }
}

async function filterRunFolders(dirs: string[]): Promise<string[]> {
  const flags = await Promise.all(dirs.map(isRunFolder));
  return dirs.filter((_, i) => flags[i]);
}

async function isRunFolder(dir: string): Promise<boolean> {
  const [meta, results] = await Promise.all([
    exists(join(dir, METADATA_FILE)),
    exists(join(dir, RESULTS_FILE)),
  ]);
  return meta || results || (await foreignLayout(dir)) !== null;
}

async function subfolders(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => join(dir, e.name))
    .sort();
}

async function isDirectory(path: string): Promise<boolean> {
  return (await statOrNull(path))?.isDirectory() ?? false;
}

async function exists(path: string): Promise<boolean> {
  return (await statOrNull(path)) !== null;
}

async function statOrNull(path: string): Promise<Stats | null> {
  try {
    return await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw error;
  }
}
