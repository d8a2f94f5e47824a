/**
 * Several rubrics scored together: rewards are summed, and metrics with the same name are summed.
 *
 * @example
 * const rubric = new RubricGroup([correctness, new Rubric().addMetric(length)]);
 */

import { AuthoringError } from "../errors.ts";
import type { RolloutState } from "../rollout/rollout-state.ts";
import { type Score, Scorer } from "./scorer.ts";

/** Several rubrics scored together; their rewards add up. */
export class RubricGroup<Data = Record<string, unknown>> extends Scorer<Data> {
  constructor(readonly rubrics: Scorer<Data>[]) {
    super();
    if (rubrics.length === 0)
      throw new AuthoringError("a RubricGroup needs at least one rubric: pass [rubric, ...]");
  }

  names(): string[] {
    return [...new Set(this.rubrics.flatMap((r) => r.names()))];
  }

  requiresGroup(): boolean {
    return this.rubrics.some((r) => r.requiresGroup());
  }

  async compute(states: RolloutState<Data>[]): Promise<Score[]> {
    const totals: Score[] = states.map(() => ({ reward: 0, metrics: {}, errors: [] }));
    for (const rubric of this.rubrics) {
      const scores = await rubric.compute(states);
      scores.forEach((score, i) => {
        const total = totals[i]!;
        total.reward += score.reward;
        for (const [name, value] of Object.entries(score.metrics)) {
          total.metrics[name] = (total.metrics[name] ?? 0) + value;
        }
        total.errors.push(...score.errors);
      });
    }
    return totals;
  }
}
