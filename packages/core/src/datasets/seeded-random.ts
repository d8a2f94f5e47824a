/**
 * Random choices that depend only on a seed: the same seed gives the same choices on every run,
 * Node version and platform. They use the mulberry32 generator (32-bit integer arithmetic only) and
 * shuffle with a Fisher-Yates pass; they are for reproducible datasets and sampling, not for
 * anything secret.
 */
import { AuthoringError } from "../errors.ts";

/** A stream of random choices, each drawn from the one before (see `seededRandom`). */
export interface SeededRandom {
  /** A number in [0, 1), a multiple of 2^-32. */
  next(): number;
  /** A whole number from `min` to `max`, both included. */
  int(min: number, max: number): number;
  /** A shuffled copy of `items`. */
  shuffle<T>(items: readonly T[]): T[];
}

/**
 * The stream of random choices of `seed` (any safe integer), for building rows: the same seed
 * gives the same choices, in the same order.
 *
 * @example
 * const random = seededRandom(7);
 * const turns = random.int(1, 3); // the same on every run
 * const order = random.shuffle(names);
 */
export function seededRandom(seed: number): SeededRandom {
  checkSeed(seed, "random");
  return mulberry32(foldSeed(seed));
}

/** A copy of `items` in an order determined by `seed` (any safe integer). */
export function seededShuffle<T>(items: readonly T[], seed: number): T[] {
  checkSeed(seed, "shuffle");
  return mulberry32(foldSeed(seed)).shuffle(items);
}

function checkSeed(seed: number, what: string): void {
  if (!Number.isSafeInteger(seed)) {
    throw new AuthoringError(
      `a ${what} seed must be an integer, got ${seed}: pass a whole number such as 0 or 42`,
    );
  }
}

/** Folds a safe integer (up to 53 bits, possibly negative) into 32 bits, high bits included. */
function foldSeed(seed: number): number {
  const low = seed >>> 0;
  const high = Math.floor(seed / 2 ** 32) >>> 0;
  return (low ^ Math.imul(high, 0x9e3779b1)) >>> 0;
}

/** The generator from a 32-bit state; `next` gives uniform numbers in [0, 1), each a multiple of 2^-32. */
function mulberry32(state: number): SeededRandom {
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    shuffle: (items) => {
      const result = [...items];
      for (let i = result.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [result[i], result[j]] = [result[j]!, result[i]!];
      }
      return result;
    },
  };
}
