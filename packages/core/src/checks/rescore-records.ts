/**
 * Scores saved rollouts again with an environment's current rubric, offline: each example's rows
 * are rebuilt as states (saved-state.ts) and scored as a group, as `generate` scored them. The
 * environment's own metrics (`num_turns`, a ToolEnv's tool calls) measured the rollout, not its
 * answer, so their saved values are kept; one the run did not save is measured from the rebuilt
 * state. A function that fails (state not saved, a judge it cannot ask) scores 0 and is recorded
 * on the row, as in a live run.
 */
import type { Environment } from "../envs/environment.ts";
import type { RolloutRecord } from "../records/rollout-record.ts";
import { errorData, type RolloutState } from "../rollout/rollout-state.ts";
import { stateFromRecord } from "./saved-state.ts";

/** Groups scored at once. */
const GROUPS_AT_ONCE = 8;

/** Each saved row scored again, in the order given. */
export async function rescoreRecords<Data>(
  env: Environment<Data>,
  records: readonly RolloutRecord[],
  model: string,
): Promise<RolloutRecord[]> {
  const groups = new Map<number, number[]>();
  records.forEach((record, index) => {
    const group = groups.get(record.example_id) ?? [];
    group.push(index);
    groups.set(record.example_id, group);
  });
  const rescored: RolloutRecord[] = [...records];
  const pending = [...groups.values()];
  // A few groups at once: reward functions may wait on something (a verifier process), never on a model.
  const worker = async () => {
    for (let indices = pending.shift(); indices; indices = pending.shift()) {
      const states = indices.map((i) => stateFromRecord<Data>(records[i]!, model));
      await env.rubric.scoreGroup(states);
      indices.forEach((recordIndex, i) => {
        rescored[recordIndex] = withScore(records[recordIndex]!, states[i]!, env);
      });
    }
  };
  await Promise.all(Array.from({ length: GROUPS_AT_ONCE }, worker));
  return rescored;
}

/** The saved row with the new reward, metrics and scoring errors. */
function withScore<Data>(
  record: RolloutRecord,
  state: RolloutState<Data>,
  env: Environment<Data>,
): RolloutRecord {
  const metrics = { ...state.metrics };
  const scoringErrors = [...state.scoringErrors];
  const own = env.metricNames().filter((name) => !env.rubric.names().includes(name));
  const unsaved = own.filter((name) => record.metrics[name] === undefined);
  const measured = unsaved.length > 0 ? ownMetrics(env, state, own, scoringErrors) : {};
  for (const name of own) metrics[name] = record.metrics[name] ?? measured[name] ?? 0;
  return {
    ...record,
    reward: state.reward,
    metrics,
    scoring_errors: scoringErrors,
    ...(record.timing ? { timing: { ...record.timing, scoring_ms: state.times.scoringMs } } : {}),
  };
}

/** The environment's own metrics measured from the rebuilt state; a failure is recorded, scoring 0. */
function ownMetrics<Data>(
  env: Environment<Data>,
  state: RolloutState<Data>,
  names: readonly string[],
  errors: RolloutState<Data>["scoringErrors"],
): Record<string, number> {
  if (!state.begun) return Object.fromEntries(names.map((name) => [name, 0]));
  try {
    return env.monitorMetrics(state);
  } catch (error) {
    errors.push({ function: "environment metrics", error: errorData(error) });
    return {};
  }
}
