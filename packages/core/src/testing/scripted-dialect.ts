/**
 * One model API as the scripted server speaks it: its route, how a request body reads as the
 * chat-shaped `ScriptedRequest` every reply script sees, how its key is sent, and the bodies of its
 * answers and errors. The server's answer flow (latency, script, recording, failure modes) is shared;
 * only these shapes differ per API.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { ScriptedReply, ScriptedRequest } from "./scripted-reply.ts";

/** The APIs the scripted server speaks, named as vf's client types. */
export type ScriptedApi =
  | "openai_chat_completions"
  | "openai_completions"
  | "openai_responses"
  | "anthropic_messages";

/** A scripted message reply. */
export type MessageReply = Extract<ScriptedReply, { type: "message" }>;

/** What one answer needs besides the reply. */
export interface AnswerContext {
  /** The answer's id, e.g. chatcmpl-scripted-3. */
  id: string;
  /** Epoch seconds. */
  created: number;
  /** Whether to add vLLM's token fields (the APIs that have them). */
  withTokens: boolean;
  /** The request's index, from 0 in arrival order. */
  index: number;
}

/** An error answer: status and JSON body. */
export interface ErrorAnswer {
  status: number;
  body: string;
}

/** One API's shapes. */
export interface ScriptedDialect {
  readonly api: ScriptedApi;
  /** The route, e.g. /v1/chat/completions. */
  readonly path: string;
  /** The prefix of answer ids. */
  readonly idPrefix: string;
  /** The body as scripts see it (chat messages, OpenAI tools, other fields as sent), or why it is refused (400). */
  view(body: Record<string, unknown>, headers: IncomingHttpHeaders): ScriptedRequest | string;
  /** Whether the request carries `apiKey` the way this API sends keys. */
  hasKey(headers: IncomingHttpHeaders, apiKey: string): boolean;
  /** Whether vLLM's token fields were asked for (APIs without them: never). */
  wantsTokens(view: ScriptedRequest): boolean;
  /** The JSON body of a message answer; throws when the reply cannot be said in this API. */
  message(view: ScriptedRequest, reply: MessageReply, context: AnswerContext): string;
  /** The JSON body of a well-formed answer with nothing in it. */
  empty(view: ScriptedRequest, context: AnswerContext): string;
  /** An error body; `format: "flat"` is vLLM's older flat shape, where the API has one. */
  error(status: number, message: string, code?: string, format?: "openai" | "flat"): string;
  /** The SSE events of a streamed answer (null reply: an empty one), for APIs streamed here. */
  stream?(view: ScriptedRequest, reply: MessageReply | null, context: AnswerContext): string[];
}

const OPENAI_ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  429: "rate_limit_error",
};

/** OpenAI's error body, `{error: {message, type, param, code}}`, or vLLM's older flat one. */
export function openAIError(
  status: number,
  message: string,
  code?: string,
  format: "openai" | "flat" = "openai",
): string {
  const type = OPENAI_ERROR_TYPES[status] ?? (status >= 500 ? "server_error" : "invalid_request_error");
  const error = { message, type, param: null, code: code ?? null };
  return JSON.stringify(format === "flat" ? { object: "error", ...error } : { error });
}

/** Whether the request sends `Authorization: Bearer <apiKey>`, as the OpenAI APIs do. */
export function hasBearer(headers: IncomingHttpHeaders, apiKey: string): boolean {
  return headers.authorization === `Bearer ${apiKey}`;
}
