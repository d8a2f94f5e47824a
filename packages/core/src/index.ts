/** @vf/core: environments, rubrics, parsers, datasets, model clients, rollouts and results. */

export * from "./client/model-client.ts";
export * from "./datasets/index.ts";
export * from "./errors.ts";
export * from "./messages/message.ts";
export * from "./parsers/index.ts";
export * from "./results/rollout-record.ts";
export * from "./results/run-metadata.ts";
export { errorData } from "./rollout/error-data.ts";
export type { Info, RolloutInput } from "./rollout/rollout-input.ts";
export type { PhaseTimes, RolloutState, TurnRecord } from "./rollout/rollout-state.ts";
export { usageOf } from "./rollout/rollout-state.ts";
export { answersEquivalent, extractFinalAnswer, normalizeAnswer } from "./rubrics/math-answer.ts";
export { correctAnswer, MathRubric, type MathRubricOptions } from "./rubrics/math-rubric.ts";
export type { GroupRewardFn, RewardContext, RewardFn } from "./rubrics/reward-context.ts";
export {
  type AddOptions,
  type GroupRewardSpec,
  type RewardSpec,
  Rubric,
  type RubricFunction,
  type RubricOptions,
} from "./rubrics/rubric.ts";
export { type Score, Scorer } from "./rubrics/scorer.ts";
export * from "./tools/tool.ts";
