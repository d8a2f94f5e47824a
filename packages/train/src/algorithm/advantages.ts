/**
 * Group-relative advantages (GRPO): each rollout's reward minus the mean reward of its group, the
 * rollouts of one prompt. Optionally divided by the group's standard deviation (the original GRPO);
 * off by default, as in prime-rl and Dr.GRPO, since it overweights groups whose rewards barely differ.
 * A per-rollout penalty (see length-penalty.ts) is subtracted from the rewards before centring.
 */

/** Options of `computeAdvantages`. */
export interface AdvantageOptions {
  /** Divide by the group's standard deviation (default false). */
  normalizeStd?: boolean;
  /** Added to the standard deviation before dividing (default 1e-6). */
  eps?: number;
  /** Subtracted from each rollout's reward before centring (a group with equal rewards still gets zeros). */
  penalties_G?: readonly number[];
}

/** The advantage of each rollout of one group; they sum to zero (up to rounding). */
export function computeAdvantages(rewards_G: readonly number[], options: AdvantageOptions = {}): number[] {
  const G = rewards_G.length;
  if (G === 0) return [];
  // equal rewards get exactly zero (their float mean can differ from them in the last bit)
  if (rewards_G.every((r) => r === rewards_G[0])) return rewards_G.map(() => 0);
  const scores_G = rewards_G.map((r, g) => r - (options.penalties_G?.[g] ?? 0));
  const mean = scores_G.reduce((a, b) => a + b, 0) / G;
  const centred_G = scores_G.map((r) => r - mean);
  if (!options.normalizeStd) return centred_G;
  const std = Math.sqrt(centred_G.reduce((a, c) => a + c * c, 0) / G);
  return centred_G.map((c) => c / (std + (options.eps ?? 1e-6)));
}

/** Mean and (population) standard deviation of some numbers; zeros for none. */
export function meanStd(values: readonly number[]): { mean: number; std: number } {
  if (values.length === 0) return { mean: 0, std: 0 };
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length;
  return { mean, std: Math.sqrt(variance) };
}
