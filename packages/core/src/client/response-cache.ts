/**
 * The response cache behind `vf eval --cache DIR`: one JSON file per recorded model call, named by
 * the digest of what was asked (cache-key.ts) and which identical call of the run it was, so a
 * folder is shared by runs and by processes. The n-th identical request of a run (rollouts of one
 * example ask the same first question) replays the n-th recorded answer, so a replay gives each
 * rollout its own recorded answer, not the first one r times. Files are written to a temporary name
 * and renamed, so concurrent writers never leave half a file; the last one wins.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { UserError } from "../errors.ts";
import { AssistantMessage, contentText } from "../messages/message.ts";
import { type CacheKey, cacheDigest } from "./cache-key.ts";
import { CacheMissError } from "./cache-miss-error.ts";
import type { ModelResponse } from "./model-client.ts";

/**
 * - `record`: answer from the cache when the call is there, else call the model and store its answer.
 * - `replay`: answer from the cache only; a call that is not there fails the run (`CacheMissError`).
 * - `refresh`: always call the model, and store its answer over any recorded one.
 */
export const CacheMode = z.enum(["record", "replay", "refresh"]);
export type CacheMode = z.infer<typeof CacheMode>;

/** One file of the cache: the request it answers (for reading and diffing) and the answer as returned. */
export const CachedCall = z.object({
  vf_response_cache: z.literal(1),
  digest: z.string(),
  occurrence: z.number().int().min(0),
  request: z.object({
    type: z.string(),
    model: z.string(),
    messages: z.array(z.unknown()),
    tools: z.array(z.unknown()),
    sampling: z.record(z.string(), z.unknown()),
  }),
  // As the client returned it, token ids and logprobs included.
  response: z.object({
    id: z.string(),
    model: z.string(),
    message: AssistantMessage,
    finishReason: z.enum(["stop", "length", "tool_calls", "content_filter", "other"]),
    usage: z.object({ promptTokens: z.number(), completionTokens: z.number() }),
    tokens: z
      .object({
        promptIds: z.array(z.number()),
        completionIds: z.array(z.number()),
        completionLogprobs: z.array(z.number()),
      })
      .nullable(),
  }),
});
export type CachedCall = z.infer<typeof CachedCall>;

/** Where the cache is and how it is used. */
export interface ResponseCacheOptions {
  dir: string;
  mode: CacheMode;
}

/** A call of the run: its key, digest and which identical call it is. */
export interface CacheSlot {
  key: CacheKey;
  digest: string;
  occurrence: number;
}

/** What a run did with the cache, for its summary line. */
export interface CacheStats {
  /** Calls answered from the cache. */
  hits: number;
  /** Calls sent to the model and stored. */
  stored: number;
  /** Replayed calls with no recorded answer. */
  misses: CacheMissError[];
}

/** Words of the last message a cache miss quotes. */
const QUOTED_WORDS = 8;

/** A cache folder and the calls of one run through it; see the file comment. */
export class ResponseCache {
  readonly dir: string;
  readonly mode: CacheMode;
  readonly stats: CacheStats = { hits: 0, stored: 0, misses: [] };
  private readonly seen = new Map<string, number>();
  /** Occurrences whose call failed before an answer was stored, taken again first. */
  private readonly free = new Map<string, number[]>();

  constructor(options: ResponseCacheOptions) {
    this.dir = options.dir;
    this.mode = options.mode;
  }

  /** The slot of one more call with `key`: identical calls of a run get occurrences 0, 1, 2, ... */
  slot(key: CacheKey): CacheSlot {
    const digest = cacheDigest(key);
    const reused = this.free.get(digest)?.shift();
    if (reused !== undefined) return { key, digest, occurrence: reused };
    const occurrence = this.seen.get(digest) ?? 0;
    this.seen.set(digest, occurrence + 1);
    return { key, digest, occurrence };
  }

  /**
   * Gives back the slot of a call that failed (a 5xx after retries, a timeout): the next identical
   * call takes it, so a recording has no gaps where a rollout was retried, and replays in order.
   */
  release(slot: CacheSlot): void {
    const free = this.free.get(slot.digest) ?? [];
    free.push(slot.occurrence);
    free.sort((a, b) => a - b);
    this.free.set(slot.digest, free);
  }

  /** The recorded answer of `slot`, or null when there is none. A damaged file is the user's to fix. */
  async read(slot: CacheSlot): Promise<ModelResponse | null> {
    const path = this.path(slot);
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
    const parsed = CachedCall.safeParse(safeJson(text));
    if (!parsed.success) {
      throw new UserError(
        `the cached model call ${path} is not a vf response cache file: delete it, then record again with --cache-mode record`,
      );
    }
    this.stats.hits += 1;
    return parsed.data.response;
  }

  /** Stores `response` as the answer of `slot`, replacing any recorded one. */
  async write(slot: CacheSlot, response: ModelResponse): Promise<void> {
    const call: CachedCall = {
      vf_response_cache: 1,
      digest: slot.digest,
      occurrence: slot.occurrence,
      request: slot.key,
      response,
    };
    await mkdir(this.dir, { recursive: true });
    const path = this.path(slot);
    const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    try {
      await writeFile(temp, `${JSON.stringify(call, null, 1)}\n`, "utf8");
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    this.stats.stored += 1;
  }

  /** The error of a replayed call with no recorded answer, counted in the stats. */
  miss(slot: CacheSlot): CacheMissError {
    const last = slot.key.messages.at(-1);
    const words = last ? contentText(last.content).trim().split(/\s+/) : [];
    const quoted = words.slice(0, QUOTED_WORDS).join(" ");
    const error = new CacheMissError({
      dir: this.dir,
      model: slot.key.model,
      type: slot.key.type,
      digest: slot.digest,
      occurrence: slot.occurrence,
      lastWords: words.length > QUOTED_WORDS ? `${quoted} ...` : quoted,
    });
    this.stats.misses.push(error);
    return error;
  }

  private path(slot: CacheSlot): string {
    return join(this.dir, `${slot.digest}-${slot.occurrence}.json`);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
