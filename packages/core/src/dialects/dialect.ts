/**
 * A model API as a server speaks it: how a request body reads as a chat request, and how an
 * answer is written back, whole or as server-sent events. The scripted model server (testing) and
 * the interception server (agents) both speak through these codecs, so the two cannot drift.
 * It is not a client: vf reaches models through core/client only.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { ModelUsage, SamplingArgs, TurnTokens } from "../client/model-client.ts";
import type { AssistantMessage, Messages } from "../messages/message.ts";
import type { ToolDefinition } from "../tools/tool.ts";

/** The APIs spoken, named as vf's client types. */
export type DialectApi =
  | "openai_chat_completions"
  | "openai_completions"
  | "openai_responses"
  | "anthropic_messages";

/** A request body read into chat shape. */
export interface DialectRequest {
  /** The model the request named ("" when it named none). */
  model: string;
  /** The conversation as chat messages (system prompt, tool calls and results included). */
  messages: Messages;
  /** The function tools offered, as OpenAI chat tools; undefined when the body has none. */
  tools?: ToolDefinition[];
  /** Whether the answer is asked for as server-sent events. */
  stream: boolean;
  /**
   * The sampling fields every API shares, spelled as the chat-completions API does (max_tokens,
   * temperature, top_p, stop, seed, reasoning_effort, ...), so they can be sent over any client.
   * Fields that are not sampling (tool_choice, metadata, ...) are not kept.
   */
  sampling: SamplingArgs;
  /** The body as sent. */
  body: Record<string, unknown>;
  /**
   * What the body held that has no chat form and was left out, one line each (e.g. `tool
   * "web_search" (web_search): a hosted tool ...`), for the trace; absent when nothing was.
   */
  dropped?: string[];
}

/** An answer to write: a model's reply with the fields every API's answer carries. */
export interface DialectAnswer {
  /** The answer's id, e.g. chatcmpl-abc; item ids of APIs that have them derive from it. */
  id: string;
  /** Epoch seconds. */
  created: number;
  model: string;
  message: AssistantMessage;
  /** Why the model stopped, in the chat-completions API's words (stop, length, tool_calls, content_filter). */
  finishReason: string;
  usage: ModelUsage;
  /** vLLM's token fields, written by the APIs that have them (chat and text completions); null: none. */
  tokens: TurnTokens | null;
}

/** The fields of an answer that are not the reply: what an empty answer has. */
export type AnswerHead = Pick<DialectAnswer, "id" | "created" | "model">;

/** Whether an answer has a reply (else it is a well-formed answer with nothing in it). */
export function hasReply(answer: DialectAnswer | AnswerHead): answer is DialectAnswer {
  return "message" in answer;
}

/** How token ids read in `logprobs.content`; default vLLM's `token_id:<id>` with no bytes. */
export type TokenText = (id: number) => { token: string; bytes: number[] };

/** One API's codec. */
export interface Dialect {
  readonly api: DialectApi;
  /** The route, e.g. /v1/chat/completions. */
  readonly path: string;
  /** The API's prefix of answer ids, e.g. chatcmpl-. */
  readonly idPrefix: string;
  /** The body read into chat shape, or why it is refused (a 400). */
  read(body: Record<string, unknown>, headers: IncomingHttpHeaders): DialectRequest | string;
  /** The key the request carries, the way this API sends keys. */
  keyOf(headers: IncomingHttpHeaders): string | undefined;
  /** Whether vLLM's token fields were asked for (APIs without them: never). */
  wantsTokens(request: DialectRequest): boolean;
  /** The JSON body of a whole answer; throws when the reply cannot be said in this API. */
  answer(answer: DialectAnswer, request: DialectRequest, tokenText?: TokenText): string;
  /** The events of a streamed answer (a head alone: one with nothing in it); absent: not streamed. */
  events?(answer: DialectAnswer | AnswerHead, request: DialectRequest): string[];
  /**
   * The events that end a stream whose headers were already sent (a long call kept alive) when the
   * call failed: what the API's own servers send, which its SDKs surface as an error.
   */
  streamError?(status: number, message: string, head: AnswerHead): string[];
  /** The JSON body of a well-formed answer with nothing in it. */
  empty(answer: AnswerHead): string;
  /** An error body; `format: "flat"` is vLLM's older flat shape, where the API has one. */
  error(status: number, message: string, code?: string, format?: "openai" | "flat"): string;
}

/**
 * The sampling fields of a body, in the chat-completions spelling: `keys` kept as they are,
 * `renames` moved to their chat name (e.g. `max_output_tokens` to `max_tokens`).
 */
export function pickSampling(
  body: Record<string, unknown>,
  keys: readonly string[],
  renames: Readonly<Record<string, string>> = {},
): SamplingArgs {
  const sampling: SamplingArgs = {};
  for (const key of keys) if (body[key] !== undefined && body[key] !== null) sampling[key] = body[key];
  for (const [from, to] of Object.entries(renames)) {
    if (body[from] !== undefined && body[from] !== null) sampling[to] = body[from];
  }
  return sampling;
}

/** The key of `Authorization: Bearer <key>`, as the OpenAI APIs send it. */
export function bearerKey(headers: IncomingHttpHeaders): string | undefined {
  const value = headers.authorization;
  return value?.startsWith("Bearer ") ? value.slice(7) : undefined;
}
