/**
 * Seeded random choices for building rows: the same seed and row index give the same choices on
 * every run and platform (core's `seededRandom`, mulberry32). Not for anything secret.
 */
import { seededRandom as randomOfSeed, type SeededRandom } from "@vf-rl/core";

/**
 * The random stream of one row: rows of the same seed get independent streams, so a row does not
 * change when other rows are added or removed.
 *
 * @example
 * seededRandom(0, 7).int(3, 4) // 3 or 4, the same on every run
 */
export function seededRandom(seed: number, row: number): SeededRandom {
  // A 32-bit state, which core's generator takes as it is.
  return randomOfSeed((Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(row | 0, 0x85ebca6b) ^ 0x6d2b79f5) >>> 0);
}
