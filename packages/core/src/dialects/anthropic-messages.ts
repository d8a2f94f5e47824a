/**
 * Anthropic's Messages API (POST /v1/messages), with its headers (the key in `x-api-key`, or as a
 * bearer token as the official SDK now sends it; an `anthropic-version` required) and its error
 * shape. The `system` prompt reads as a system message, tool_use blocks as the assistant's tool
 * calls, tool_result blocks as tool messages and thinking blocks as reasoning. Mid-conversation
 * system turns (`role: "system"` inside `messages`, the beta Claude Code sends to models it does not
 * know) read as system messages where they stand, and the tools they add or remove change the tools
 * offered. The reply is written as thinking, text and tool_use blocks with a `stop_reason` (end_turn,
 * max_tokens, tool_use, refusal), whole or as the events Claude Code and the SDK's MessageStream
 * read (`message_start` ... `message_stop`). Server tools (web search, code execution, ...), which
 * have no input schema, are left out and listed in `dropped`.
 */
import { type Content, contentText, type Message, type ToolCall } from "../messages/message.ts";
import type { ToolDefinition } from "../tools/tool.ts";
import {
  type AnswerHead,
  bearerKey,
  type Dialect,
  type DialectAnswer,
  hasReply,
  pickSampling,
} from "./dialect.ts";
import { anthropicError } from "./error-bodies.ts";
import { sseEvent, textPieces } from "./sse.ts";

type Block = Record<string, unknown>;

const STOP_REASONS: Record<string, string> = {
  stop: "end_turn",
  length: "max_tokens",
  tool_calls: "tool_use",
  content_filter: "refusal",
};

/** The signature written on thinking blocks: vf keeps none, and reads none back. */
const THINKING_SIGNATURE = "vf";

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

/** A tool definition as a chat function tool, or why it has none (a server tool). */
function functionTool(tool: Block): ToolDefinition | string {
  const name = String(tool.name);
  if (typeof tool.input_schema !== "object" || tool.input_schema === null) {
    return `tool "${name}" (${String(tool.type)}): a server tool, run by Anthropic's servers, with no input schema to offer the model`;
  }
  return {
    type: "function",
    function: {
      name,
      ...(typeof tool.description === "string" ? { description: tool.description } : {}),
      parameters: tool.input_schema as Record<string, unknown>,
    },
  };
}

/** A request read: its messages, the tools offered at its end, and what has no chat form. */
interface ReadRequest {
  messages: Message[];
  /** By name, in the order first offered; undefined when the body offers none. */
  tools: Map<string, ToolDefinition> | undefined;
  dropped: string[];
}

/**
 * A mid-conversation system turn: its text as a system message (none when it has no text), and the
 * tools it adds or removes applied to `read.tools` (the chat APIs take one list of tools a request,
 * so the model is offered the tools as they stand at the end of the conversation).
 */
function readSystemTurn(turn: Block, read: ReadRequest): void {
  const blocks: Block[] =
    typeof turn.content === "string"
      ? [{ type: "text", text: turn.content }]
      : ((turn.content ?? []) as Block[]);
  const text: string[] = [];
  for (const block of blocks) {
    if (block.type === "text") text.push(String(block.text ?? ""));
    else if (block.type === "tool_addition") {
      const tool = functionTool(((block.tool as Block | undefined)?.definition ?? {}) as Block);
      if (typeof tool === "string") read.dropped.push(tool);
      else {
        read.tools ??= new Map();
        read.tools.set(tool.function.name, tool);
      }
    } else if (block.type === "tool_removal") {
      read.tools?.delete(String((block.tool as Block | undefined)?.name));
    } else {
      read.dropped.push(`a system turn's ${String(block.type)} block, which has no chat form`);
    }
  }
  if (turn.output_config !== undefined) {
    read.dropped.push("a system turn's output_config (per-turn output settings), which vf does not forward");
  }
  const said = text.join("\n\n");
  if (said !== "") read.messages.push({ role: "system", content: said });
}

/** The chat messages and tools a request stands for, or why it is refused. */
function readRequest(body: Record<string, unknown>): ReadRequest | string {
  if (!Array.isArray(body.messages)) return "messages: Field required";
  const read: ReadRequest = { messages: [], tools: undefined, dropped: [] };
  const { messages } = read;
  const system = text(body.system);
  if (system !== "") messages.push({ role: "system", content: system });
  if (Array.isArray(body.tools)) {
    read.tools = new Map();
    for (const tool of body.tools as Block[]) {
      const chat = functionTool(tool);
      if (typeof chat === "string") read.dropped.push(chat);
      else read.tools.set(chat.function.name, chat);
    }
  }
  for (const turn of body.messages as Block[]) {
    if (turn.role === "system") {
      readSystemTurn(turn, read);
      continue;
    }
    const content =
      typeof turn.content === "string"
        ? [{ type: "text", text: turn.content }]
        : ((turn.content ?? []) as Block[]);
    if (turn.role === "assistant") {
      const calls: ToolCall[] = content
        .filter((block) => block.type === "tool_use")
        .map((block) => ({
          id: String(block.id),
          type: "function",
          function: { name: String(block.name), arguments: JSON.stringify(block.input ?? {}) },
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
  return read;
}

/** The content blocks of a reply; throws when a tool call's arguments are not a JSON object. */
function contentBlocks(answer: DialectAnswer): Block[] {
  const { message } = answer;
  const content: Block[] = [];
  if (message.reasoning_content !== undefined) {
    content.push({ type: "thinking", thinking: message.reasoning_content, signature: THINKING_SIGNATURE });
  }
  const said = contentText(message.content);
  if (said !== "") content.push({ type: "text", text: said });
  for (const call of message.tool_calls ?? []) {
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
  return content;
}

function head(answer: AnswerHead) {
  return { id: answer.id, type: "message", role: "assistant", model: answer.model };
}

/** The events of one content block, from `content_block_start` to `content_block_stop`. */
function blockEvents(block: Block, index: number, emit: (type: string, fields: Block) => void): void {
  const delta = (fields: Block) => emit("content_block_delta", { index, delta: fields });
  switch (block.type) {
    case "thinking":
      emit("content_block_start", {
        index,
        content_block: { type: "thinking", thinking: "", signature: "" },
      });
      delta({ type: "thinking_delta", thinking: block.thinking });
      delta({ type: "signature_delta", signature: block.signature });
      break;
    case "text":
      emit("content_block_start", { index, content_block: { type: "text", text: "" } });
      for (const piece of textPieces(block.text as string)) delta({ type: "text_delta", text: piece });
      break;
    default:
      emit("content_block_start", {
        index,
        content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
      });
      delta({ type: "input_json_delta", partial_json: JSON.stringify(block.input) });
  }
  emit("content_block_stop", { index });
}

/** The count_tokens answer: `{input_tokens}`. */
export function countTokensBody(inputTokens: number): string {
  return JSON.stringify({ input_tokens: inputTokens });
}

/** POST /v1/messages. */
export const anthropicDialect: Dialect = {
  api: "anthropic_messages",
  path: "/v1/messages",
  idPrefix: "msg_",
  read: (body, headers) => {
    if (typeof headers["anthropic-version"] !== "string") return "anthropic-version: header is required";
    if (typeof body.max_tokens !== "number") return "max_tokens: Field required";
    const read = readRequest(body);
    if (typeof read === "string") return read;
    const sampling = pickSampling(body, ["max_tokens", "temperature", "top_p", "top_k"], {
      stop_sequences: "stop",
    });
    return {
      model: String(body.model),
      messages: read.messages,
      ...(read.tools !== undefined ? { tools: [...read.tools.values()] } : {}),
      stream: body.stream === true,
      sampling,
      body,
      ...(read.dropped.length > 0 ? { dropped: read.dropped } : {}),
    };
  },
  keyOf: (headers) => {
    const key = headers["x-api-key"];
    return typeof key === "string" ? key : bearerKey(headers);
  },
  wantsTokens: () => false,
  answer: (answer) =>
    JSON.stringify({
      ...head(answer),
      content: contentBlocks(answer),
      stop_reason: STOP_REASONS[answer.finishReason] ?? "end_turn",
      stop_sequence: null,
      usage: { input_tokens: answer.usage.promptTokens, output_tokens: answer.usage.completionTokens },
    }),
  events: (answer) => {
    const events: string[] = [];
    const emit = (type: string, fields: Block) => events.push(sseEvent({ type, ...fields }, type));
    const reply = hasReply(answer);
    const blocks = reply ? contentBlocks(answer) : [];
    const usage = reply ? answer.usage : { promptTokens: 0, completionTokens: 0 };
    emit("message_start", {
      message: {
        ...head(answer),
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.promptTokens, output_tokens: 0 },
      },
    });
    emit("ping", {});
    blocks.forEach((block, index) => {
      blockEvents(block, index, emit);
    });
    emit("message_delta", {
      delta: {
        stop_reason: reply ? (STOP_REASONS[answer.finishReason] ?? "end_turn") : "end_turn",
        stop_sequence: null,
      },
      usage: { output_tokens: usage.completionTokens },
    });
    emit("message_stop", {});
    return events;
  },
  streamError: (status, message) => [`event: error\ndata: ${anthropicError(status, message)}\n\n`],
  empty: (answer) =>
    JSON.stringify({
      ...head(answer),
      content: [],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 0, output_tokens: 0 },
    }),
  error: (status, message) => anthropicError(status, message),
};
