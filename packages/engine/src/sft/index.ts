/** Supervised fine-tuning: conversations to training sequences, the loop, and its loss curve. */

export { type LossCurveInput, type LossPoint, lossCurveSvg } from "./loss-curve.ts";
export { readConversations } from "./sft-data.ts";
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
