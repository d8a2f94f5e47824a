/**
 * What every rubric is: something that scores the rollouts of a group. `Rubric`, `RubricGroup` and
 * the environment-group rubric implement it; environments call `scoreGroup` or `scoreRollout`.
 */

import { GroupScoringRequiredError } from "../errors.ts";
import type { ScoringError } from "../results/rollout-record.ts";
import type { RolloutState } from "../rollout/rollout-state.ts";

export interface Score {
  reward: number;
  metrics: Record<string, number>;
  errors: ScoringError[];
}

export abstract class Scorer<Data = Record<string, unknown>> {
  /** Names of every reward and metric this scorer reports. */
  abstract names(): string[];

  /** True when some function needs the whole group, so rollouts cannot be scored one by one. */
  abstract requiresGroup(): boolean;

  /** Scores without touching the states. `states` are the rollouts of one group, or one rollout. */
  abstract compute(states: RolloutState<Data>[]): Promise<Score[]>;

  /**
   * Scores the rollouts of one example together: sets reward, metrics, scoring errors and the
   * advantage (reward minus the group mean) on each state.
   */
  async scoreGroup(states: RolloutState<Data>[]): Promise<void> {
    const started = performance.now();
    const scores = await this.compute(states);
    const elapsed = performance.now() - started;
    scores.forEach((score, i) => {
      applyScore(states[i]!, score, elapsed);
    });
    const mean = states.reduce((sum, s) => sum + s.reward, 0) / Math.max(1, states.length);
    for (const state of states) state.advantage = state.reward - mean;
  }

  /** Scores one rollout on its own (independent scoring). Fails when a group function is present. */
  async scoreRollout(state: RolloutState<Data>): Promise<void> {
    if (this.requiresGroup()) {
      throw new GroupScoringRequiredError();
    }
    const started = performance.now();
    const [score] = await this.compute([state]);
    applyScore(state, score!, performance.now() - started);
  }
}

function applyScore<Data>(state: RolloutState<Data>, score: Score, elapsedMs: number): void {
  state.reward = score.reward;
  state.metrics = { ...state.metrics, ...score.metrics };
  state.scoringErrors = [...state.scoringErrors, ...score.errors];
  state.times.scoringMs += elapsedMs;
}
