/**
 * The highest reward a scorer gives, for `vf eval validate`'s "the reference scores the maximum":
 * a rubric's own `maxReward` when it declares one, else its reward functions are read as scores in
 * [0, 1] (vf's and verifiers' convention), so the maximum is the sum of their positive weights; a group of rubrics adds up; any other scorer (a
 * taskset's, an `EnvGroup`'s) is taken to top out at 1.
 */
import { Rubric } from "../rubrics/rubric.ts";
import { RubricGroup } from "../rubrics/rubric-group.ts";
import type { Scorer } from "../rubrics/scorer.ts";

/** The maximum reward of `scorer`; see the file comment. */
export function maxReward<Data>(scorer: Scorer<Data>): number {
  if (scorer instanceof Rubric) {
    if (scorer.maxReward !== undefined) return scorer.maxReward;
    return scorer.entries.reduce((sum, entry) => sum + Math.max(0, entry.weight), 0);
  }
  if (scorer instanceof RubricGroup) {
    return scorer.rubrics.reduce((sum, rubric) => sum + maxReward(rubric), 0);
  }
  return 1;
}
