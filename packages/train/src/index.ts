/**
 * @vf-rl/train: reinforcement learning on any vf environment. The RL loop (prompts → rollouts by the
 * environment against an OpenAI-compatible inference server → rewards → group-relative advantages
 * → training items → forwardBackward/optimStep through the trainer protocol → saveWeights → the
 * inference server loads them), its TOML config, checkpoints and exact resume, metrics.jsonl and
 * the reward curve, and the first-run checks of `vf doctor`. Supervised fine-tuning, beside it, is
 * `@vf-rl/train/supervised`. The trainer protocol itself, in process and over HTTP, is the
 * engine's (@vf-rl/engine).
 *
 * Shape suffixes. Ragged RL data is named for its shape, as tinker-cookbook does:
 *   G  rollouts of one group (one prompt, rollouts_per_example of them)
 *   P  groups (prompts) of a batch
 *   B  rollouts of a batch (P × G = batch_size)
 *   D  training items (datums) of a rollout or a batch: one per rollout, or one per turn when a
 *      turn's prompt does not extend the previous turn
 *   T  tokens of one sequence
 *   E  environments of a run (its [[env]] tables)
 * so `rewards_G` is one reward per rollout of a group, `items_B_D` the items of each rollout of a
 * batch, `tokens_P_G_T` token ids per prompt, rollout and position.
 */

export { type AdvantageOptions, computeAdvantages, meanStd } from "./algorithm/advantages.ts";
export { type DifficultyThresholds, type GroupVerdict, judgeGroup } from "./algorithm/difficulty-filter.ts";
export {
  type DistillBatchOptions,
  type DistillWeights,
  distillBatch,
  distillItem,
  type TeacherReport,
} from "./algorithm/distillation.ts";
export { type StepTrainResult, type TrainStepOptions, trainStep } from "./algorithm/train-step.ts";
export { type NoItemsReason, type RolloutItems, rolloutItems } from "./algorithm/training-items.ts";
export { readRunLineage } from "./checkpoints/fork-run.ts";
export { ForkPoint, RunLineage } from "./checkpoints/lineage.ts";
export { latestCheckpoint, RunProgress } from "./checkpoints/run-checkpoint.ts";
export { AlgoConfig, GrpoAlgoConfig, OpdAlgoConfig, TeacherConfig } from "./config/algo-config.ts";
export { checkConfigRules } from "./config/config-rules.ts";
export { CurriculumConfig, GateConfig, RowSamplerConfig } from "./config/curriculum-config.ts";
export { type EnvSource, envSource } from "./config/env-source.ts";
export {
  builtinBaseModel,
  type ConfigSource,
  loadTrainConfig,
  type ResolvedTrainConfig,
  resolveTrainConfig,
} from "./config/load-train-config.ts";
export { SftStageConfig } from "./config/sft-stage-config.ts";
export {
  AdvantageConfig,
  CheckpointsConfig,
  EnvConfig,
  EvalConfig,
  FreshModelConfig,
  InferenceConfig,
  LossConfig,
  OptimizerConfig,
  SamplingConfig,
  TrainConfig,
  type TrainConfigInput,
  TrainerConfig,
} from "./config/train-config.ts";
export { formatDoctorReport } from "./doctor/format-doctor-report.ts";
export { type DoctorOptions, type DoctorReport, runDoctor } from "./doctor/run-doctor.ts";
export {
  type ConnectInferenceOptions,
  connectInference,
  type InferenceEndpoint,
  startLocalInference,
} from "./inference/inference-endpoint.ts";
export { openTeacher, type TeacherEndpoint } from "./inference/teacher-endpoint.ts";
export { OffPolicySchedule } from "./loop/off-policy.ts";
export { describeStages, type RunStagesResult, runStages } from "./loop/run-stages.ts";
export { type RunTrainingOptions, type RunTrainingResult, runTraining } from "./loop/run-training.ts";
export { EvalRow, MetricsLog, MetricsRow, readMetrics, StepTimes, TrainRow } from "./metrics/metrics-file.ts";
export { rewardCurveHtml, rewardCurveSvg, writeRewardCurve } from "./metrics/reward-curve.ts";
export { SftRow } from "./metrics/sft-row.ts";
export { rewardInterval } from "./metrics/step-report.ts";
export {
  type CollectBatchOptions,
  type CollectedBatch,
  collectBatch,
  describeCounts,
  type FilterCounts,
  type TrainEnv,
  type TrainGroup,
} from "./rollouts/collect-batch.ts";
export { mixSeed, PolicyClient, type PolicyClientOptions } from "./rollouts/policy-client.ts";
export {
  type DrawnPrompt,
  PromptSource,
  type PromptSourceOptions,
  PromptSourceState,
} from "./rollouts/prompt-source.ts";
export { TeacherScorer } from "./rollouts/teacher-scorer.ts";
export { RngState, trainRng } from "./rollouts/train-rng.ts";
export { RunLayout } from "./run-layout.ts";
