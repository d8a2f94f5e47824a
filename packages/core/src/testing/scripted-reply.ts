/**
 * What the scripted server answers: a reply script is a function from the request to a
 * `ScriptedReply`, and the helpers here build the common ones (echo, fixed text, a sequence, a
 * function of the prompt).
 */
import type { Messages } from "../messages/message.ts";
import { contentText } from "../messages/message.ts";
import type { ToolDefinition } from "../tools/tool.ts";

/** A tool call the scripted model makes. `arguments` objects are JSON-encoded; `id` defaults to `call_<n>`. */
export interface ScriptedToolCall {
  id?: string;
  name: string;
  arguments: string | Record<string, unknown>;
}

/** One scripted answer, discriminated on `type`. */
export type ScriptedReply =
  /** A normal completion. `finishReason` defaults to "tool_calls" when there are tool calls, else "stop". */
  | {
      type: "message";
      content?: string | null;
      toolCalls?: ScriptedToolCall[];
      reasoningContent?: string;
      finishReason?: "stop" | "length" | "tool_calls" | "content_filter";
    }
  /**
   * An HTTP error. The body is OpenAI's `{ error: { message, type, code } }`, or with
   * `format: "flat"` the `{ object: "error", message, type, code }` that older vLLM and SGLang send.
   */
  | { type: "error"; status: number; message: string; code?: string; format?: "openai" | "flat" }
  /**
   * A dropped connection: the socket is destroyed before any response byte is written, or with
   * `midBody`, after the headers and part of the body.
   */
  | { type: "drop"; midBody?: boolean }
  /** A 200 response whose body is `body` verbatim; `contentType` defaults to application/json. */
  | { type: "garbage"; body: string; contentType?: string }
  /** A well-formed completion with no choices. */
  | { type: "empty" };

/** A reply, or a string as shorthand for `{ type: "message", content }`. */
export type ScriptedReplyLike = ScriptedReply | string;

/** The chat-completions body the server received, as sent (unknown keys kept). */
export interface ScriptedRequest {
  model: string;
  messages: Messages;
  tools?: ToolDefinition[];
  stream?: boolean;
  [key: string]: unknown;
}

/** Decides the answer to a request; `index` counts chat requests from 0 in arrival order, across all clients. */
export type ReplyFn = (
  request: ScriptedRequest,
  index: number,
) => ScriptedReplyLike | Promise<ScriptedReplyLike>;

/** The reply as a full `ScriptedReply`. */
export function toScriptedReply(reply: ScriptedReplyLike): ScriptedReply {
  return typeof reply === "string" ? { type: "message", content: reply } : reply;
}

/** The text of the last user message, or "" when there is none. */
export function lastUserText(messages: Messages): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === "user") return contentText(message.content);
  }
  return "";
}

/** Answers with the text of the last user message. The server's default script. */
export const echoLastUser: ReplyFn = (request) => {
  const text = lastUserText(request.messages);
  // An empty echo would be an empty response, which clients reject; say so instead.
  return text === "" ? "(no user message)" : text;
};

/** Answers every request with the same text. */
export function fixedReply(text: string): ReplyFn {
  return () => text;
}

/**
 * Answers the n-th call with the n-th reply; past the end, the last reply repeats.
 * Counts calls to this script, so one `sequence` per server.
 *
 * @example sequence([{ type: "error", status: 429, message: "slow down" }, "4"])
 */
export function sequence(replies: ScriptedReplyLike[]): ReplyFn {
  if (replies.length === 0) throw new TypeError("sequence() needs at least one reply: pass [reply, ...]");
  let calls = 0;
  return () => replies[Math.min(calls++, replies.length - 1)]!;
}

/**
 * Answers from the prompt: `fn` receives the messages and the whole request.
 *
 * @example byPrompt((messages) => (lastUserText(messages).includes("2+2") ? "4" : "I don't know"))
 */
export function byPrompt(
  fn: (messages: Messages, request: ScriptedRequest) => ScriptedReplyLike | Promise<ScriptedReplyLike>,
): ReplyFn {
  return (request) => fn(request.messages, request);
}
