/**
 * Anthropic's Messages API as the scripted server speaks it (POST /v1/messages), with its headers
 * (the key in `x-api-key`, or as a bearer token as the official SDK now sends it; an
 * `anthropic-version` required) and its error shape
 * (`{type: "error", error: {type, message}}`). The `system` prompt reads as a system message,
 * tool_use blocks as the assistant's tool calls and tool_result blocks as tool messages; the reply
 * comes back as text, thinking and tool_use blocks with a `stop_reason` (end_turn, max_tokens,
 * tool_use, refusal).
 */
import type { Content, Message, ToolCall } from "../messages/message.ts";
import { finishReasonOf, wireMessage } from "./scripted-completion.ts";
import { hasBearer, type ScriptedDialect } from "./scripted-dialect.ts";
import type { ScriptedRequest } from "./scripted-reply.ts";
import { countTokens, renderCompletion, renderPrompt } from "./scripted-tokens.ts";

type Block = Record<string, unknown>;

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  529: "overloaded_error",
};

const STOP_REASONS: Record<string, string> = {
  stop: "end_turn",
  length: "max_tokens",
  tool_calls: "tool_use",
  content_filter: "refusal",
};

/** Anthropic's error body. */
export function anthropicError(status: number, message: string): string {
  const type = ERROR_TYPES[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
  return JSON.stringify({ type: "error", error: { type, message } });
}

function text(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as Block[]).map((block) => (block.type === "text" ? String(block.text) : "")).join("");
}

/** text and image blocks as chat content. */
function chatContent(blocks: Block[]): Content {
  return blocks.map((block) => {
    if (block.type !== "image") return { type: "text" as const, text: String(block.text ?? "") };
    const source = block.source as Block;
    const url =
      source.type === "base64"
        ? `data:${String(source.media_type)};base64,${String(source.data)}`
        : String(source.url);
    return { type: "image_url" as const, image_url: { url } };
  });
}

/** The chat messages a request stands for, or why it is refused. */
function chatMessages(body: Record<string, unknown>): Message[] | string {
  if (!Array.isArray(body.messages)) return "messages: Field required";
  const messages: Message[] = [];
  const system = text(body.system);
  if (system !== "") messages.push({ role: "system", content: system });
  for (const turn of body.messages as Block[]) {
    const content =
      typeof turn.content === "string" ? [{ type: "text", text: turn.content }] : (turn.content as Block[]);
    if (turn.role === "assistant") {
      const calls: ToolCall[] = content
        .filter((block) => block.type === "tool_use")
        .map((block) => ({
          id: String(block.id),
          type: "function",
          function: { name: String(block.name), arguments: JSON.stringify(block.input) },
        }));
      const thinking = content
        .filter((block) => block.type === "thinking")
        .map((block) => String(block.thinking));
      const said = text(content);
      messages.push({
        role: "assistant",
        content: said === "" && calls.length > 0 ? null : said,
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
        ...(thinking.length > 0 ? { reasoning_content: thinking.join("") } : {}),
      });
    } else if (turn.role === "user") {
      for (const block of content.filter((b) => b.type === "tool_result")) {
        const result =
          typeof block.content === "string" ? block.content : chatContent((block.content as Block[]) ?? []);
        messages.push({ role: "tool", tool_call_id: String(block.tool_use_id), content: result });
      }
      const rest = content.filter((block) => block.type === "text" || block.type === "image");
      if (rest.length > 0) {
        messages.push({
          role: "user",
          content: typeof turn.content === "string" ? turn.content : chatContent(rest),
        });
      }
    } else {
      return `messages: unexpected role "${String(turn.role)}"`;
    }
  }
  return messages;
}

/** POST /v1/messages. */
export const anthropicDialect: ScriptedDialect = {
  api: "anthropic_messages",
  path: "/v1/messages",
  idPrefix: "msg_scripted_",
  view: (body, headers) => {
    if (typeof headers["anthropic-version"] !== "string") return "anthropic-version: header is required";
    if (typeof body.max_tokens !== "number") return "max_tokens: Field required";
    const messages = chatMessages(body);
    if (typeof messages === "string") return messages;
    const view: ScriptedRequest = { ...body, model: String(body.model), messages };
    if (Array.isArray(body.tools)) {
      view.tools = (body.tools as Block[]).map((tool) => ({
        type: "function" as const,
        function: {
          name: String(tool.name),
          ...(typeof tool.description === "string" ? { description: tool.description } : {}),
          parameters: tool.input_schema as Record<string, unknown>,
        },
      }));
    }
    return view;
  },
  hasKey: (headers, apiKey) => headers["x-api-key"] === apiKey || hasBearer(headers, apiKey),
  wantsTokens: () => false,
  message: (view, reply, context) => {
    const content: Block[] = [];
    if (reply.reasoningContent !== undefined) {
      content.push({ type: "thinking", thinking: reply.reasoningContent, signature: "scripted" });
    }
    if (reply.content) content.push({ type: "text", text: reply.content });
    const message = wireMessage(reply, context.index);
    const calls =
      (message.tool_calls as Array<{ id: string; function: { name: string; arguments: string } }>) ?? [];
    for (const call of calls) {
      let input: unknown;
      try {
        input = JSON.parse(call.function.arguments);
      } catch {
        throw new Error(
          `tool call ${call.id} has arguments that are not JSON, which a tool_use block cannot carry`,
        );
      }
      content.push({ type: "tool_use", id: call.id, name: call.function.name, input });
    }
    return JSON.stringify({
      ...head(view, context.id),
      content,
      stop_reason: STOP_REASONS[finishReasonOf(reply)],
      stop_sequence: null,
      usage: {
        input_tokens: countTokens(renderPrompt(view.messages, view.tools)),
        output_tokens: countTokens(renderCompletion(message as { role: string })),
      },
    });
  },
  empty: (view, context) =>
    JSON.stringify({
      ...head(view, context.id),
      content: [],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 0, output_tokens: 0 },
    }),
  error: (status, message) => anthropicError(status, message),
};

function head(view: ScriptedRequest, id: string) {
  return { id, type: "message", role: "assistant", model: view.model };
}
