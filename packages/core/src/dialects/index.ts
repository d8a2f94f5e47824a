/**
 * The model APIs as servers speak them, one codec per API (see dialect.ts): what the scripted model
 * server and the interception server share.
 */
export { anthropicDialect, countTokensBody } from "./anthropic-messages.ts";
export { chatDialect } from "./chat-completions.ts";
export {
  type AnswerHead,
  type Dialect,
  type DialectAnswer,
  type DialectApi,
  type DialectRequest,
  hasReply,
  type TokenText,
} from "./dialect.ts";
export { anthropicError, openAIError } from "./error-bodies.ts";
export { modelEntry, modelsListBody } from "./models-list.ts";
export { responsesDialect } from "./responses.ts";
export { textCompletionDialect } from "./text-completions.ts";
