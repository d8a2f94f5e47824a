/**
 * What every rubric is: something that scores the rollouts of a group. `Rubric`, `RubricGroup` and
 * `EnvGroupScorer` (an `EnvGroup`'s) implement it; environments call `scoreGroup` or `scoreRollout`.
 */

import { GroupScoringRequiredError } from "../errors.ts";
import type { ScoringError } from "../records/rollout-record.ts";
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
   * advantage (reward minus the group mean) on each state. A rollout that never began (see
   * `RolloutState.begun`) is not given to the functions: it scores 0 in every reward and metric.
   */
  async scoreGroup(states: RolloutState<Data>[]): Promise<void> {
    const begun = states.filter((state) => state.begun);
    const started = performance.now();
    const scores = begun.length > 0 ? await this.compute(begun) : [];
    const elapsed = performance.now() - started;
    scores.forEach((score, i) => {
      applyScore(begun[i]!, score, elapsed);
    });
    for (const state of states) if (!state.begun) applyScore(state, this.zeros(), 0);
    const mean = states.reduce((sum, s) => sum + s.reward, 0) / Math.max(1, states.length);
    for (const state of states) state.advantage = state.reward - mean;
  }

  /**
   * Scores one rollout on its own (independent scoring). Fails when a group function is present.
   * A rollout that never began scores 0 in every reward and metric, as in `scoreGroup`.
   */
  async scoreRollout(state: RolloutState<Data>): Promise<void> {
    if (this.requiresGroup()) {
      throw new GroupScoringRequiredError();
    }
    if (!state.begun) return applyScore(state, this.zeros(), 0);
    const started = performance.now();
    const [score] = await this.compute([state]);
    applyScore(state, score!, performance.now() - started);
  }

  /** The score of a rollout that never began: 0 everywhere, nothing run. */
  private zeros(): Score {
    return { reward: 0, metrics: Object.fromEntries(this.names().map((name) => [name, 0])), errors: [] };
  }
}

function applyScore<Data>(state: RolloutState<Data>, score: Score, elapsedMs: number): void {
  state.reward = score.reward;
  state.metrics = { ...state.metrics, ...score.metrics };
  state.scoringErrors = [...state.scoringErrors, ...score.errors];
  state.times.scoringMs += elapsedMs;
}
