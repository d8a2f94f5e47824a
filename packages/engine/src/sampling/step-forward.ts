/**
 * What the batch sampler needs of a forward pass: KV caches to open and close, and a step that
 * appends new tokens to some of them and returns the logits of each one's last new token.
 * cached-forward.ts is the plain one (ordinary arrays, any dtype, the reference);
 * wasm-cached-forward.ts the fast one (float32, everything resident in WebAssembly memory).
 * Both give the training forward's logits bit for bit.
 */
import { EngineError } from "../errors.ts";
import type { Floats } from "../floats.ts";

/** The KV cache of one sequence, as a step sees it. */
export interface SequenceCache {
  /** Positions filled so far. */
  length: number;
  /** Most positions it may hold: prompt plus max tokens, at most the model's maxSeqLen. */
  readonly capacity: number;
}

/** A forward pass that runs only new tokens, over per-sequence KV caches of its own. */
export interface StepForward {
  /** A fresh cache with room for `capacity` positions. */
  openCache(capacity: number): SequenceCache;
  /** Gives a cache's memory back; the cache must not be stepped again. */
  closeCache(cache: SequenceCache): void;
  /**
   * Makes `to` hold the first `length` positions of `from` (keys and values copied, `to.length`
   * set to `length`): for a sequence whose tokens begin as `from`'s did, exactly what running
   * those tokens would store.
   */
  copyPrefix(from: SequenceCache, to: SequenceCache, length: number): void;
  /**
   * Appends `newTokens[s]` to sequence s (its cache `caches[s]`) and returns the logits (S, V) of
   * the last new token of each sequence, valid until the next call.
   */
  step(caches: readonly SequenceCache[], newTokens: readonly (readonly number[])[]): Floats;
}

/** Checks that a prefix of `length` positions can be copied from `from` into `to`. */
export function checkCopy(from: SequenceCache, to: SequenceCache, length: number): void {
  if (!Number.isInteger(length) || length < 0 || length > from.length || length > to.capacity) {
    throw new EngineError(
      `cannot copy ${length} positions from a cache holding ${from.length} into one of ${to.capacity}: copy at most what both hold`,
    );
  }
}

/** Checks a step's input (each sequence has new tokens that fit its cache and the vocabulary); returns N. */
export function checkStep(
  caches: readonly SequenceCache[],
  newTokens: readonly (readonly number[])[],
  V: number,
): number {
  let N = 0;
  if (new Set(caches).size < caches.length) {
    throw new EngineError("a cache appears twice in one step: step each sequence once");
  }
  for (let s = 0; s < caches.length; s++) {
    const tokens = newTokens[s]!;
    const cache = caches[s]!;
    if (tokens.length === 0)
      throw new EngineError(`sequence ${s} has no new token to run: give each sequence at least one`);
    if (cache.length + tokens.length > cache.capacity) {
      throw new EngineError(
        `sequence ${s} would hold ${cache.length + tokens.length} positions in a cache of ${cache.capacity}: ` +
          "size the cache for prompt plus max tokens",
      );
    }
    for (const token of tokens) {
      if (!Number.isInteger(token) || token < 0 || token >= V) {
        throw new EngineError(
          `token id ${token} is outside the vocabulary of ${V}: encode with this model's tokenizer`,
        );
      }
    }
    N += tokens.length;
  }
  return N;
}
