/**
 * @vf-rl/engine: a small decoder-only transformer in TypeScript with hand-written forward and backward
 * passes, a byte-level chat tokenizer, AdamW, batched sampling with logprobs, safetensors
 * checkpoints, and the trainer protocol (forwardBackward, optimStep, saveWeights, sample) in this
 * process or over HTTP (HttpTrainer, startTrainerServer).
 */

export { BASE_MODEL_DIR, BUILTIN_MODEL_NAME } from "./base-model.ts";
export { CONFIG_FILE, loadCheckpoint, saveCheckpoint, WEIGHTS_FILE } from "./checkpoint/checkpoint.ts";
export type { ReadTensor, TensorToWrite } from "./checkpoint/safetensors.ts";
export { decodeSafetensors, encodeSafetensors } from "./checkpoint/safetensors.ts";
export type { ModelConfigInput } from "./config.ts";
export { headSize, ModelConfig, parseModelConfig, safeParseModelConfig } from "./config.ts";
export {
  BatchError,
  CheckpointError,
  ConfigError,
  EngineError,
  SamplingError,
  SequenceTooLongError,
  TensorMismatchError,
  TrainerHttpError,
  TrainerRefusedError,
  TrainerUnavailableError,
} from "./errors.ts";
export type { DType, Floats } from "./floats.ts";
export { allocFloats } from "./floats.ts";
export type { LossSums, LossTargets } from "./losses/loss.ts";
export { evaluateLoss } from "./losses/loss.ts";
export type { TransformerOptions } from "./model.ts";
export { Transformer } from "./model.ts";
export { AdamW } from "./optim/adamw.ts";
export { clipGradNorm, gradNorm } from "./optim/grad-clip.ts";
export { LrSchedule, learningRateAt, warmupConstant, warmupCosine } from "./optim/lr-schedule.ts";
export { type PackedBatch, packSequences } from "./packed-batch.ts";
export type { TensorKind, TensorSpec } from "./params.ts";
export { initParameters, namedTensors, parameterCount, tensorSpecs } from "./params.ts";
export { Rng, type RngWords, splitmix32 } from "./rng.ts";
export type { AddOptions, BatchSamplerOptions, TokenEvent } from "./sampling/batch-sampler.ts";
export { BatchSampler, sampleBatch } from "./sampling/batch-sampler.ts";
export type { Pick, Scored, TokenLogprob } from "./sampling/logits-processor.ts";
export { scorePrompt } from "./sampling/prompt-logprobs.ts";
export type { EngineServer, EngineServerOptions, ErrorBody } from "./server/index.ts";
export { ApiError, startEngineServer } from "./server/index.ts";
export type { ChatMessageInput, ParsedToolCall, RenderChatOptions } from "./tokenizer/chat-template.ts";
export {
  ChatMessage,
  ChatToolCall,
  messageText,
  parseToolCalls,
  renderChat,
} from "./tokenizer/chat-template.ts";
export type { DecodeOptions, EncodeOptions, SpecialToken } from "./tokenizer/tokenizer.ts";
export { ByteTokenizer, SPECIAL_TOKENS, tokenizer } from "./tokenizer/tokenizer.ts";
export { ChatTool, toolsSection, withToolsSection } from "./tokenizer/tools-section.ts";
export { HttpTrainer, type HttpTrainerOptions } from "./trainer/http/http-trainer.ts";
export {
  createTrainerApp,
  startTrainerServer,
  type TrainerAppOptions,
  type TrainerServer,
  type TrainerServerOptions,
} from "./trainer/http/trainer-server.ts";
export {
  DirRequest,
  ForwardBackwardRequest,
  OkResponse,
  TRAINER_ROUTES,
  TrainerErrorResponse,
  TrainerHealthResponse,
  type TrainerRoute,
} from "./trainer/http/trainer-wire.ts";
export type { LocalTrainerOptions } from "./trainer/local-trainer.ts";
export { createLocalTrainer, LocalTrainer } from "./trainer/local-trainer.ts";
export type {
  AdamParamsInput,
  LossInput,
  SampleRequestInput,
  SamplingParamsInput,
  Trainer,
} from "./trainer/protocol.ts";
export {
  AdamParams,
  Batch,
  BatchItem,
  CrossEntropyLoss,
  FinishReason,
  ForwardBackwardResult,
  ImportanceSamplingLoss,
  Loss,
  MaskedImportanceSamplingLoss,
  OptimStepResult,
  SampledSequence,
  SampleRequest,
  SampleResult,
  SamplingParams,
  SaveWeightsResult,
} from "./trainer/protocol.ts";
export type { TrainerState } from "./trainer/trainer-state.ts";
export { loadTrainerState, OPTIMIZER_FILE, saveTrainerState } from "./trainer/trainer-state.ts";
