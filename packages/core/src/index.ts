/** @vf/core: environments, rubrics, parsers, datasets, model clients, rollouts and results. */

export * from "./client/index.ts";
export { closestMatch, editDistance } from "./config/closest-match.ts";
export { describeConfigIssues } from "./config/config-issues.ts";
export * from "./datasets/index.ts";
export { EnvGroup, type EnvGroupOptions } from "./envs/env-group.ts";
export {
  type CleanupFn,
  type DatasetSource,
  Environment,
  type EnvironmentOptions,
  type Inputs,
  type InputsOptions,
  type RolloutContext,
  type TeardownFn,
} from "./envs/environment.ts";
export {
  type EnvResponse,
  MultiTurnEnv,
  type MultiTurnEnvOptions,
  type StopCheck,
} from "./envs/multi-turn-env.ts";
export { type Hook, OrderedHooks } from "./envs/ordered-hooks.ts";
export { SingleTurnEnv, type SingleTurnEnvOptions } from "./envs/single-turn-env.ts";
export { type StatefulTool, StatefulToolEnv, type StatefulToolEnvOptions } from "./envs/stateful-tool-env.ts";
export {
  type AnyTool,
  type ErrorClass,
  type ToolCallContext,
  ToolEnv,
  type ToolEnvOptions,
} from "./envs/tool-env.ts";
export * from "./errors.ts";
export {
  type EvaluateOptions,
  type EvaluateProgress,
  type EvaluateResult,
  evaluate,
  type SaveOptions,
} from "./generate/evaluate.ts";
export { type GenerateOptions, type GenerateResult, generate, groupByExample } from "./generate/generate.ts";
export { Slots } from "./generate/slots.ts";
export {
  defineEnvironment,
  type EnvironmentDefinition,
  type LoadEnvironmentFn,
} from "./loading/define-environment.ts";
export { EnvManifest, EnvPackageJson } from "./loading/env-manifest.ts";
export {
  type FindOptions,
  type FoundEnvironment,
  findEnvironment,
  listEnvironments,
  managedEnvironmentsDir,
  parseEnvId,
} from "./loading/find-environment.ts";
export {
  entryFile,
  type LoadedEnvironment,
  type LoadOptions,
  loadEnvironmentById,
} from "./loading/load-environment.ts";
export * from "./messages/message.ts";
export * from "./parsers/index.ts";
export * from "./results/index.ts";
export { type CreateStateOptions, createState } from "./rollout/create-state.ts";
export { errorData } from "./rollout/error-data.ts";
export { recordError } from "./rollout/record-error.ts";
export type { Info, RolloutInput } from "./rollout/rollout-input.ts";
export type { PhaseTimes, RolloutState, TurnRecord } from "./rollout/rollout-state.ts";
export { usageOf } from "./rollout/rollout-state.ts";
export { type ToRecordOptions, toRecord } from "./rollout/to-record.ts";
export { DEFAULT_JUDGE_PROMPT, JudgeRubric, type JudgeRubricOptions } from "./rubrics/judge-rubric.ts";
export { lcsRatio } from "./rubrics/lcs-ratio.ts";
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
export { RubricGroup } from "./rubrics/rubric-group.ts";
export { type Score, Scorer } from "./rubrics/scorer.ts";
export * from "./tools/tool.ts";
