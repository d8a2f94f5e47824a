/**
 * prime-rl's linear length penalty: before the group mean is taken, each rollout's reward loses
 *
 *   pass_rate × (output · out/max_out + input · in/max_in + turns · turns/max_turns)
 *
 * where the maxima are over the group and pass_rate is the group's mean reward (clamped to [0, 1]).
 * Among rollouts that score alike, the shorter one gets the larger advantage; a group that mostly
 * fails pays little, so the penalty never outweighs learning to succeed. It is what keeps a reward
 * that ignores text after the answer (reverse-text's LCS of the tagged part) from letting the policy
 * drift into writing until max_tokens.
 */

/** The weights of each length; 0 turns a term off. */
export interface LengthPenaltyWeights {
  output: number;
  input: number;
  turns: number;
}

/** How long one rollout was. */
export interface RolloutLength {
  outputTokens: number;
  inputTokens: number;
  turns: number;
}

/** The penalty of each rollout of one group (all zeros when every weight is 0). */
export function lengthPenalties(
  rewards_G: readonly number[],
  lengths_G: readonly RolloutLength[],
  weights: LengthPenaltyWeights,
): number[] {
  const G = rewards_G.length;
  if (G === 0) return [];
  const passRate = Math.min(1, Math.max(0, rewards_G.reduce((a, b) => a + b, 0) / G));
  const share = (value: number, max: number) => (max > 0 ? value / max : 0);
  const maxOut = Math.max(...lengths_G.map((l) => l.outputTokens));
  const maxIn = Math.max(...lengths_G.map((l) => l.inputTokens));
  const maxTurns = Math.max(...lengths_G.map((l) => l.turns));
  return lengths_G.map(
    (l) =>
      passRate *
      (weights.output * share(l.outputTokens, maxOut) +
        weights.input * share(l.inputTokens, maxIn) +
        weights.turns * share(l.turns, maxTurns)),
  );
}
