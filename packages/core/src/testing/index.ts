/** @vf-rl/core/testing: a scripted OpenAI-compatible server and reply scripts, for offline tests. */
export { concurrencyProbe } from "./concurrency-probe.ts";
export { evaluateScripted } from "./evaluate-scripted.ts";
export { referenceReplies } from "./reference-replies.ts";
export { scoreCompletion } from "./score-completion.ts";
export {
  byPrompt,
  fixedReply,
  lastUserText,
  type ReplyFn,
  type ScriptedReply,
  type ScriptedRequest,
} from "./scripted-reply.ts";
export {
  type ScriptedApi,
  type ScriptedServer,
  type ScriptedServerOptions,
  startScriptedServer,
} from "./scripted-server.ts";
