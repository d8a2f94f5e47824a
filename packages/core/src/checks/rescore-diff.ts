/**
 * What a rescore changed, row by row against the saved run: the mean reward before and after, each
 * metric's mean before and after with how many rollouts it changed in, how many rollouts' rewards
 * changed, the largest changes (by example), and the functions that could not score offline.
 */
import type { RolloutRecord } from "../records/rollout-record.ts";

/** Differences smaller than this are float noise, not a change. */
const EPSILON = 1e-9;

/** One metric (or the reward) before and after. */
export interface ValueChange {
  before: number;
  after: number;
  /** Rollouts whose value changed. */
  changed: number;
}

/** One rollout whose reward changed. */
export interface RolloutChange {
  exampleId: number;
  rolloutIndex: number;
  before: number;
  after: number;
}

/** The differences between a saved run and its rescore; see the file comment. */
export interface RescoreDiff {
  rollouts: number;
  /** Mean reward before and after, and how many rollouts' rewards changed. */
  reward: ValueChange;
  /** Every metric of either side by name; a metric one side lacks counts as absent there (NaN mean). */
  metrics: Record<string, ValueChange>;
  /** The rollouts whose reward changed most, largest first. */
  largest: RolloutChange[];
  /** Rollouts with a scoring error after the rescore, by function. */
  scoringErrors: Record<string, number>;
  /** One example message per failing function. */
  scoringErrorMessages: Record<string, string>;
}

/** Compares `after` (the rescore) with `before` (the saved rows), row for row; `top` largest changes (default 5). */
export function rescoreDiff(
  before: readonly RolloutRecord[],
  after: readonly RolloutRecord[],
  top = 5,
): RescoreDiff {
  const names = new Set([...before, ...after].flatMap((record) => Object.keys(record.metrics)));
  const metrics: Record<string, ValueChange> = {};
  for (const name of [...names].sort()) {
    metrics[name] = change(before, after, (record) => record.metrics[name]);
  }
  const changes: RolloutChange[] = [];
  before.forEach((old, i) => {
    const now = after[i]!;
    if (Math.abs(now.reward - old.reward) > EPSILON) {
      changes.push({
        exampleId: old.example_id,
        rolloutIndex: old.rollout_index,
        before: old.reward,
        after: now.reward,
      });
    }
  });
  changes.sort(
    (a, b) =>
      Math.abs(b.after - b.before) - Math.abs(a.after - a.before) ||
      a.exampleId - b.exampleId ||
      a.rolloutIndex - b.rolloutIndex,
  );
  const scoringErrors: Record<string, number> = {};
  const scoringErrorMessages: Record<string, string> = {};
  for (const record of after) {
    for (const failure of new Set(record.scoring_errors.map((e) => e.function))) {
      scoringErrors[failure] = (scoringErrors[failure] ?? 0) + 1;
    }
    for (const { function: name, error } of record.scoring_errors) {
      scoringErrorMessages[name] ??= `${error.error}: ${error.message}`;
    }
  }
  return {
    rollouts: after.length,
    reward: change(before, after, (record) => record.reward),
    metrics,
    largest: changes.slice(0, top),
    scoringErrors,
    scoringErrorMessages,
  };
}

function change(
  before: readonly RolloutRecord[],
  after: readonly RolloutRecord[],
  value: (record: RolloutRecord) => number | undefined,
): ValueChange {
  let changed = 0;
  before.forEach((old, i) => {
    const a = value(old);
    const b = value(after[i]!);
    if (a === undefined || b === undefined ? a !== b : Math.abs(a - b) > EPSILON) changed++;
  });
  return { before: mean(before.map(value)), after: mean(after.map(value)), changed };
}

/** Mean of the values present; NaN when none is (the metric is absent on that side). */
function mean(values: readonly (number | undefined)[]): number {
  const present = values.filter((v): v is number => v !== undefined);
  return present.length === 0 ? Number.NaN : present.reduce((sum, v) => sum + v, 0) / present.length;
}
