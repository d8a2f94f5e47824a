/** @vf-rl/core/testing: a scripted model server (every API vf speaks) and reply scripts, for offline tests. */

export {
  type EvaluateScriptedOptions,
  type EvaluateScriptedResult,
  evaluateScripted,
} from "./evaluate-scripted.ts";
export { type ReferenceRepliesOptions, referenceReplies } from "./reference-replies.ts";
export type { ScriptedApi } from "./scripted-dialect.ts";
export {
  byPrompt,
  echoLastUser,
  fixedReply,
  lastUserText,
  type ReplyFn,
  type ScriptedReply,
  type ScriptedReplyLike,
  type ScriptedRequest,
  type ScriptedToolCall,
  sequence,
} from "./scripted-reply.ts";
export { type ScriptedServer, type ScriptedServerOptions, startScriptedServer } from "./scripted-server.ts";
export { IM_END, IM_START } from "./scripted-tokens.ts";
