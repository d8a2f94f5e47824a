/** @vf-rl/core/rollout: a rollout's state from start to record, for hosts that run rollouts themselves. */
export { type CreateStateOptions, createState } from "./create-state.ts";
export { errorData } from "./error-data.ts";
export { recordError } from "./record-error.ts";
export type { Info, RolloutInput } from "./rollout-input.ts";
export type { PhaseTimes, RolloutState, TurnRecord } from "./rollout-state.ts";
export { usageOf } from "./rollout-state.ts";
export { type ToRecordOptions, toRecord } from "./to-record.ts";
