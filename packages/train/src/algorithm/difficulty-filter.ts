/**
 * Online difficulty filtering: a group teaches nothing when every rollout scored the same (its
 * advantages are all zero), and little when the prompt is nearly always or nearly never solved.
 * Such groups are dropped and the batch is refilled with fresh ones (see collect-batch.ts).
 */

/** The thresholds of a filter; an absent threshold keeps those groups. */
export interface DifficultyThresholds {
  /** Drop a group whose mean reward is at or above this. */
  easyThreshold?: number | undefined;
  /** Drop a group whose mean reward is at or below this. */
  hardThreshold?: number | undefined;
  /**
   * Keep a group whose rollouts all scored the same (default false: dropped). On-policy
   * distillation keeps them: their tokens carry the teacher's signal whatever the rewards.
   */
  keepNoSpread?: boolean | undefined;
}

/** What the filter decided about one group. */
export type GroupVerdict = "keep" | "too_easy" | "too_hard" | "no_spread";

/** Rewards closer than this count as equal (floating-point noise of a reward function). */
const SPREAD_EPS = 1e-9;

/** Whether to train on a group with these rewards. */
export function judgeGroup(rewards_G: readonly number[], thresholds: DifficultyThresholds): GroupVerdict {
  const mean = rewards_G.reduce((a, b) => a + b, 0) / rewards_G.length;
  if (thresholds.easyThreshold !== undefined && mean >= thresholds.easyThreshold) return "too_easy";
  if (thresholds.hardThreshold !== undefined && mean <= thresholds.hardThreshold) return "too_hard";
  const spread = Math.max(...rewards_G) - Math.min(...rewards_G);
  return spread <= SPREAD_EPS && !thresholds.keepNoSpread ? "no_spread" : "keep";
}
