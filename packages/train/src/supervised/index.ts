/**
 * @vf-rl/train/supervised: supervised fine-tuning (`vf sft`) through the trainer protocol, beside
 * the RL loop: conversations (JSONL), saved rollouts filtered by reward, or environments' reference
 * answers → training sequences with the assistant turns trained → cross-entropy, AdamW, the eval
 * loss → checkpoints, metrics.jsonl and loss-curve.svg. `fineTune` is the whole command as a
 * function; `runSft` is the loop alone, for any `Trainer` and any `BatchItem`s.
 */

export { type FineTuneOptions, fineTune, type StartingModel } from "./fine-tune.ts";
export { type LossCurveInput, type LossPoint, lossCurveSvg } from "./loss-curve.ts";
export { DataFileError, readConversations } from "./sft-data.ts";
export { conversationItem, SftConversation } from "./sft-example.ts";
export {
  meanLoss,
  runSft,
  type SftProgress,
  type SftResult,
  type SftRunOptions,
  SftSettings,
  type SftSettingsInput,
} from "./sft-loop.ts";
export { type DataKind, type DataSource, readDataSource, UnfilterableDataError } from "./sft-rollouts.ts";
export {
  loadSftConversations,
  type SftConversations,
  type SftSourceOptions,
} from "./sft-sources.ts";
