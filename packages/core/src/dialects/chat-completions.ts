/**
 * OpenAI's chat-completions API (POST /v1/chat/completions): messages read as vf's chat messages
 * (`developer` as system, tool call arguments as JSON text, unknown content parts dropped), and
 * answers written whole (with vLLM's token fields when there are some) or as SSE chunks, a word of
 * content at a time, ending with `[DONE]`.
 */
import type { Content, Message, Messages, ToolCall } from "../messages/message.ts";
import type { ToolDefinition } from "../tools/tool.ts";
import {
  bearerKey,
  type Dialect,
  type DialectAnswer,
  hasReply,
  pickSampling,
  type TokenText,
} from "./dialect.ts";
import { openAIError } from "./error-bodies.ts";
import { sseEvent, textPieces } from "./sse.ts";

type Wire = Record<string, unknown>;

/** The sampling fields kept from a chat body; `max_completion_tokens` reads as `max_tokens`. */
const SAMPLING_KEYS = [
  "max_tokens",
  "temperature",
  "top_p",
  "top_k",
  "min_p",
  "stop",
  "seed",
  "presence_penalty",
  "frequency_penalty",
  "repetition_penalty",
  "logprobs",
  "top_logprobs",
  "reasoning_effort",
  "return_token_ids",
];

/** Content as vf keeps it: a string, or its text and image parts. */
export function readContent(content: unknown): Content {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: Exclude<Content, string> = [];
  for (const part of content as Wire[]) {
    if (typeof part?.text === "string" && (part.type === "text" || part.type === "input_text")) {
      parts.push({ type: "text", text: part.text });
    }
    const image = part?.image_url as { url?: unknown } | string | undefined;
    const url = typeof image === "string" ? image : image?.url;
    if (part?.type === "image_url" && typeof url === "string") {
      parts.push({ type: "image_url", image_url: { url } });
    }
  }
  return parts;
}

function readToolCalls(calls: unknown): ToolCall[] {
  if (!Array.isArray(calls)) return [];
  return (calls as Wire[]).map((call, i) => {
    const fn = (call.function ?? {}) as Wire;
    const args = fn.arguments;
    return {
      id: typeof call.id === "string" ? call.id : `call_${i}`,
      type: "function",
      function: {
        name: String(fn.name ?? ""),
        arguments: typeof args === "string" ? args : JSON.stringify(args ?? {}),
      },
    };
  });
}

/** One wire message as vf's, or why it is refused. */
function readMessage(wire: unknown, index: number): Message | string {
  if (typeof wire !== "object" || wire === null) return `messages[${index}] is not an object`;
  const message = wire as Wire;
  switch (message.role) {
    case "system":
    case "developer":
      return { role: "system", content: readContent(message.content) };
    case "user":
      return { role: "user", content: readContent(message.content) };
    case "assistant": {
      const calls = readToolCalls(message.tool_calls);
      const reasoning = message.reasoning_content ?? message.reasoning;
      return {
        role: "assistant",
        content:
          message.content === null || message.content === undefined ? null : readContent(message.content),
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
        ...(typeof reasoning === "string" && reasoning !== "" ? { reasoning_content: reasoning } : {}),
      };
    }
    case "tool":
      return {
        role: "tool",
        tool_call_id: String(message.tool_call_id ?? ""),
        content: readContent(message.content),
      };
    default:
      return `messages[${index}] has an unknown role ${JSON.stringify(message.role)}`;
  }
}

/** The function tools of a body (other tool types are not kept). */
function readTools(tools: unknown): ToolDefinition[] | undefined {
  if (!Array.isArray(tools)) return undefined;
  return (tools as Wire[])
    .filter(
      (tool) => tool.type === "function" && typeof (tool.function as Wire | undefined)?.name === "string",
    )
    .map((tool) => {
      const fn = tool.function as Wire;
      return {
        type: "function" as const,
        function: {
          name: fn.name as string,
          ...(typeof fn.description === "string" ? { description: fn.description } : {}),
          parameters: (fn.parameters as Record<string, unknown> | undefined) ?? {
            type: "object",
            properties: {},
          },
          ...(typeof fn.strict === "boolean" ? { strict: fn.strict } : {}),
        },
      };
    });
}

/** The assistant message in wire shape. */
function wireMessage(answer: DialectAnswer): Wire {
  const { message } = answer;
  const wire: Wire = { role: "assistant", content: message.content ?? null };
  if (message.reasoning_content !== undefined) wire.reasoning_content = message.reasoning_content;
  if (message.tool_calls && message.tool_calls.length > 0) wire.tool_calls = message.tool_calls;
  return wire;
}

const vllmTokenText: TokenText = (id) => ({ token: `token_id:${id}`, bytes: [] });

function usageBody(answer: DialectAnswer): Wire {
  const { promptTokens, completionTokens } = answer.usage;
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}

/** POST /v1/chat/completions. */
export const chatDialect: Dialect = {
  api: "openai_chat_completions",
  path: "/v1/chat/completions",
  idPrefix: "chatcmpl-",
  read: (body) => {
    if (!Array.isArray(body.messages)) return "request body needs a messages array";
    if (body.n !== undefined && body.n !== null && body.n !== 1) {
      return `one answer per request: n=1 only, got n=${String(body.n)}`;
    }
    const messages: Messages = [];
    for (const [i, wire] of (body.messages as unknown[]).entries()) {
      const message = readMessage(wire, i);
      if (typeof message === "string") return message;
      messages.push(message);
    }
    const tools = readTools(body.tools);
    const sampling = pickSampling(body, SAMPLING_KEYS, { max_completion_tokens: "max_tokens" });
    return {
      model: typeof body.model === "string" ? body.model : "",
      messages,
      ...(tools !== undefined ? { tools } : {}),
      stream: body.stream === true,
      sampling,
      body,
    };
  },
  keyOf: bearerKey,
  wantsTokens: (request) => request.body.logprobs === true || request.body.return_token_ids === true,
  answer: (answer, _request, tokenText = vllmTokenText) => {
    const choice: Wire = {
      index: 0,
      message: wireMessage(answer),
      logprobs: null,
      finish_reason: answer.finishReason,
    };
    const body: Wire = {
      id: answer.id,
      object: "chat.completion",
      created: answer.created,
      model: answer.model,
      choices: [choice],
    };
    if (answer.tokens) {
      const { promptIds, completionIds, completionLogprobs } = answer.tokens;
      choice.token_ids = completionIds;
      choice.logprobs = {
        content: completionIds.map((id, i) => ({
          ...tokenText(id),
          logprob: completionLogprobs[i] ?? 0,
          top_logprobs: [],
        })),
      };
      body.prompt_token_ids = promptIds;
    }
    body.usage = usageBody(answer);
    return JSON.stringify(body);
  },
  events: (answer, request) => {
    const events: string[] = [];
    if (hasReply(answer)) {
      const base = {
        id: answer.id,
        object: "chat.completion.chunk",
        created: answer.created,
        model: answer.model,
      };
      const chunk = (delta: Wire, finish: string | null = null) =>
        sseEvent({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
      const { message } = answer;
      events.push(chunk({ role: "assistant", content: "" }));
      if (message.reasoning_content !== undefined) {
        events.push(chunk({ reasoning_content: message.reasoning_content }));
      }
      const content = message.content;
      const text =
        typeof content === "string"
          ? content
          : (content ?? []).map((p) => (p.type === "text" ? p.text : "")).join("");
      for (const piece of textPieces(text)) events.push(chunk({ content: piece }));
      (message.tool_calls ?? []).forEach((call, i) => {
        events.push(chunk({ tool_calls: [{ index: i, ...call }] }));
      });
      events.push(chunk({}, answer.finishReason));
      const options = request.body.stream_options as { include_usage?: boolean } | undefined;
      if (options?.include_usage) events.push(sseEvent({ ...base, choices: [], usage: usageBody(answer) }));
    }
    events.push("data: [DONE]\n\n");
    return events;
  },
  streamError: (status, message) => [`data: ${openAIError(status, message)}\n\n`, "data: [DONE]\n\n"],
  empty: (answer) =>
    JSON.stringify({
      id: answer.id,
      object: "chat.completion",
      created: answer.created,
      model: answer.model,
      choices: [],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    }),
  error: openAIError,
};
