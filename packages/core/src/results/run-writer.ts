/**
 * Saves a run as it goes: rows are appended to results.jsonl batch by batch (each batch one write,
 * flushed to disk before the call returns), and metadata.json is replaced atomically. A kill can at
 * worst leave a torn last line, which readers skip and `repairTail` cuts off before the next append.
 *
 * @example
 * const writer = await RunWriter.open({ dir: runDirectory({ outputDir, envId, model, runId: newRunId() }) });
 * await writer.writeMetadata({ ...meta, status: "running" });
 * await generate(env, inputs, { ...options, onGroup: (records) => writer.append(records) });
 * await writer.close();
 *
 * A writer owns its folder: `open` takes the folder's lock (see run-lock.ts) and `close` releases
 * it, so a second writer of the same run fails with `RunLockedError` instead of interleaving rows.
 */
import { open, stat } from "node:fs/promises";
import { join } from "node:path";
import { RunFolderNotEmptyError } from "../errors.ts";
import { recordToLine } from "../records/record-line.ts";
import type { RolloutRecord } from "../records/rollout-record.ts";
import { RunMetadata } from "../records/run-metadata.ts";
import { writeFileAtomic, writeSynced } from "./atomic-file.ts";
import { makeFolder } from "./make-folder.ts";
import { repairTail } from "./results-file.ts";
import { METADATA_FILE, RESULTS_FILE } from "./run-directory.ts";
import { acquireRunLock, type LockInfo, type RunLock } from "./run-lock.ts";

/** Which folder to write, and whether to continue the rows already there. */
export interface RunWriterOptions {
  /** The run folder (see `runDirectory`); created with its parents when missing. */
  dir: string;
  /**
   * Append to the rows already saved there (after `planResume`); default false, and then the folder
   * must hold no rows yet, so a finished run is never appended to by mistake.
   */
  resume?: boolean;
  /** The folder's lock, when the caller already holds it (`planResume` takes it); else `open` takes it. */
  lock?: RunLock;
}

/** Appends rollout records and replaces the metadata of one run folder. */
export class RunWriter {
  /** Path of results.jsonl. */
  readonly resultsPath: string;
  /** Path of metadata.json. */
  readonly metadataPath: string;
  #rowsWritten = 0;
  // Writes run one after another, so two batches never interleave and the last metadata wins.
  #queue: Promise<unknown> = Promise.resolve();
  #pending: Array<{ text: string; rows: number; resolve: () => void; reject: (error: unknown) => void }> = [];
  #draining: Promise<void> | undefined;

  private constructor(
    readonly dir: string,
    readonly lock: RunLock,
  ) {
    this.resultsPath = join(dir, RESULTS_FILE);
    this.metadataPath = join(dir, METADATA_FILE);
  }

  /**
   * Takes the folder's lock and creates the folder and an empty results.jsonl (or, resuming, makes
   * the file end on a whole line). Throws `RunLockedError` when a live process writes the folder.
   */
  static async open(options: RunWriterOptions): Promise<RunWriter> {
    await makeFolder(options.dir);
    const lock = options.lock ?? (await acquireRunLock(options.dir));
    const writer = new RunWriter(options.dir, lock);
    try {
      if (options.resume) {
        await repairTail(writer.resultsPath);
      } else if ((await sizeOf(writer.resultsPath)) > 0) {
        throw new RunFolderNotEmptyError(options.dir, writer.resultsPath);
      }
      const handle = await open(writer.resultsPath, "a");
      await handle.close();
    } catch (error) {
      await lock.release();
      throw error;
    }
    return writer;
  }

  /** The stale lock of a dead process this writer replaced, if any (worth a note to the user). */
  get tookOver(): LockInfo | null {
    return this.lock.tookOver;
  }

  /** Finishes every queued write, then releases the folder's lock. */
  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      await this.lock.release();
    }
  }

  /** Rows appended through this writer so far. */
  get rowsWritten(): number {
    return this.#rowsWritten;
  }

  /**
   * Appends one line per record (metrics also flattened as top-level keys, see `recordToLine`),
   * synced to disk before the promise resolves. A record that cannot be serialised throws before
   * anything is written. Appends that arrive while a write is in flight are committed together in
   * the next single write and sync (group commit), so hundreds of groups finishing at once cost a
   * few syncs, not hundreds.
   */
  async append(records: RolloutRecord[]): Promise<void> {
    if (records.length === 0) return this.flush();
    const text = records.map((record) => `${recordToLine(record)}\n`).join("");
    return new Promise<void>((resolve, reject) => {
      this.#pending.push({ text, rows: records.length, resolve, reject });
      this.#draining ??= this.#drain();
    });
  }

  async #drain(): Promise<void> {
    while (this.#pending.length > 0) {
      const batch = this.#pending.splice(0);
      const text = batch.map((entry) => entry.text).join("");
      try {
        await this.#enqueue(() => writeSynced(this.resultsPath, text, "a"));
        for (const entry of batch) {
          this.#rowsWritten += entry.rows;
          entry.resolve();
        }
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    this.#draining = undefined;
  }

  /** Validates and atomically replaces metadata.json (pretty-printed, like verifiers). */
  async writeMetadata(meta: RunMetadata): Promise<void> {
    const parsed = RunMetadata.parse(meta);
    return this.#enqueue(() => writeFileAtomic(this.metadataPath, `${JSON.stringify(parsed, null, 2)}\n`));
  }

  /** Resolves when every write queued so far has finished. */
  async flush(): Promise<void> {
    await this.#draining;
    await this.#queue;
  }

  #enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(task);
    // The caller gets `run` and its error; the queue itself must keep going after a failed write.
    this.#queue = run.catch(() => undefined);
    return run;
  }
}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
}
