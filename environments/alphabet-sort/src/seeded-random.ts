/**
 * Seeded random choices for building rows: the same seed and row index give the same choices on
 * every run and platform (mulberry32, 32-bit integer arithmetic only). Not for anything secret.
 */

/** A stream of random choices. */
export interface SeededRandom {
  /** A whole number from `min` to `max`, both included. */
  int(min: number, max: number): number;
  /** A shuffled copy of `items`. */
  shuffle<T>(items: readonly T[]): T[];
}

/**
 * The random stream of one row: rows of the same seed get independent streams, so a row does not
 * change when other rows are added or removed.
 *
 * @example
 * seededRandom(0, 7).int(3, 4) // 3 or 4, the same on every run
 */
export function seededRandom(seed: number, row: number): SeededRandom {
  let state = (Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(row | 0, 0x85ebca6b) ^ 0x6d2b79f5) >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  return {
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
