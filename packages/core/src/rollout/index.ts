/** @vf-rl/core/rollout: a rollout's first state, for hosts and tests that run a rollout's steps themselves. */
export { createState } from "./rollout-state.ts";
