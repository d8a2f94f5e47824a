/** @vf-rl/core/rollout: a rollout's state, for hosts that start rollouts themselves. */
export { type CreateStateOptions, createState } from "./create-state.ts";
export type { Info, RolloutInput } from "./rollout-input.ts";
export type { PhaseTimes, RolloutState, TurnRecord } from "./rollout-state.ts";
