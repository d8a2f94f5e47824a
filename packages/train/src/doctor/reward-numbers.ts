/**
 * How `vf doctor` compares and prints rewards. Weighted sums leave float noise (0.1 × 0.4 is
 * 0.04000000000000001), so rewards closer than `REWARD_EPSILON` count as equal, and a reward is
 * printed with at most 4 significant digits.
 */

/** Rewards closer than this count as equal: a reward whose whole spread is below it is constant. */
export const REWARD_EPSILON = 1e-6;

/** Whether two rewards are equal up to float noise. */
export function sameReward(a: number, b: number): boolean {
  return Math.abs(a - b) <= REWARD_EPSILON;
}

/** A reward as people write it: 0.04, 0.6667, 1 (never 0.04000000000000001). */
export function formatReward(x: number): string {
  return String(Number(x.toPrecision(4)));
}

/** `x` rounded to 4 decimals in the direction that keeps `x` on the given side of the result. */
export function roundedThreshold(x: number, direction: "down" | "up"): string {
  const scaled = x * 1e4;
  const rounded = direction === "down" ? Math.floor(scaled + 1e-6) : Math.ceil(scaled - 1e-6);
  return String(rounded / 1e4);
}
