/**
 * The weight of each named reward function of an environment's scorer, for a trace's weighted
 * `rewards` (verifiers' `{name: {score, weight}}`). Rubrics and rubric groups are read; a scorer of
 * another kind has no inspectable weights, and then the rollout's reward is reported as one entry.
 */
import { Rubric, RubricGroup } from "@vf-rl/core";

/** Name to weight; undefined when the scorer cannot be read. Names summed across a group add their weights. */
export function rewardWeights(scorer: unknown): Map<string, number> | undefined {
  if (scorer instanceof Rubric) {
    const weights = new Map<string, number>();
    for (const entry of scorer.entries) weights.set(entry.name, entry.weight);
    return weights;
  }
  if (scorer instanceof RubricGroup) {
    const weights = new Map<string, number>();
    for (const rubric of scorer.rubrics) {
      const inner = rewardWeights(rubric);
      if (!inner) return undefined;
      for (const [name, weight] of inner) {
        if (weights.has(name) && weights.get(name) !== weight) return undefined;
        weights.set(name, weight);
      }
    }
    return weights;
  }
  return undefined;
}
