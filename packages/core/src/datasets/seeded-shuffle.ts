/**
 * A shuffle that depends only on its seed: the same seed gives the same order on every run, Node
 * version and platform. It uses the mulberry32 generator (32-bit integer arithmetic only) and a
 * Fisher-Yates pass; it is for reproducible sampling, not for anything secret.
 */
import { AuthoringError } from "../errors.ts";

/** A copy of `items` in an order determined by `seed` (any safe integer). */
export function seededShuffle<T>(items: readonly T[], seed: number): T[] {
  if (!Number.isSafeInteger(seed)) {
    throw new AuthoringError(
      `a shuffle seed must be an integer, got ${seed}: pass a whole number such as 0 or 42`,
    );
  }
  const next = mulberry32(foldSeed(seed));
  const result = [...items];
  for (let i = result.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [result[i], result[j]] = [result[j]!, result[i]!];
  }
  return result;
}

/** Folds a safe integer (up to 53 bits, possibly negative) into 32 bits, high bits included. */
function foldSeed(seed: number): number {
  const low = seed >>> 0;
  const high = Math.floor(seed / 2 ** 32) >>> 0;
  return (low ^ Math.imul(high, 0x9e3779b1)) >>> 0;
}

/** Uniform numbers in [0, 1), each a multiple of 2^-32. */
function mulberry32(state: number): () => number {
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}
