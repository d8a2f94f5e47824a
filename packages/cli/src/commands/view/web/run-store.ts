/**
 * The runs `vf view --web` serves: those under its folder, listed afresh for each runs page (a run
 * saved meanwhile appears), each named in URLs by its path under the folder, so only a listed run
 * can be opened (a URL cannot reach another folder). A run is read once and again only when its
 * results.jsonl changed.
 */
import { stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { UserError } from "@vf-rl/core/errors";
import { type LoadedRun, listRuns, type RunEntry, readRun } from "@vf-rl/core/results";

/** A run the list could read. */
type RunListing = Extract<RunEntry, { type: "run" }>;

/** A run asked for by a name no listed run has: the page answers 404. */
export class RunNotFoundError extends UserError {}

/** A listed run and its rows. */
export interface OpenedRun {
  key: string;
  listing: RunListing;
  run: LoadedRun;
}

export class RunStore {
  private readonly cache = new Map<string, { mtimeMs: number; run: LoadedRun }>();

  constructor(readonly root: string) {}

  /** Every run under the folder, newest first (core's `listRuns`). */
  list(): Promise<RunEntry[]> {
    return listRuns(this.root);
  }

  /** The name of a run in URLs: its folder relative to the served one ("." for the folder itself). */
  key(entry: RunEntry): string {
    return relative(this.root, entry.dir) || ".";
  }

  /** The listed run named `key`, with its rows; RunNotFoundError when none is. */
  async open(key: string): Promise<OpenedRun> {
    const listing = (await this.list()).find((entry) => this.key(entry) === key);
    if (!listing) throw new RunNotFoundError(`no run ${key} under ${this.root}: pick one from the list`);
    if (listing.type === "unreadable") throw new UserError(`cannot open ${listing.dir}: ${listing.message}`);
    const mtimeMs = (await stat(join(listing.dir, "results.jsonl"))).mtimeMs;
    const cached = this.cache.get(listing.dir);
    if (cached && cached.mtimeMs === mtimeMs) return { key, listing, run: cached.run };
    const run = await readRun(listing.dir);
    this.cache.set(listing.dir, { mtimeMs, run });
    return { key, listing, run };
  }
}
