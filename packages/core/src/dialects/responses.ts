/**
 * OpenAI's Responses API (POST /v1/responses): `instructions` and `input` items read as chat
 * messages (function_call and custom_tool_call items as the assistant's tool calls, their outputs as
 * tool messages), and the tools as chat function tools: function tools as they are, the function
 * tools of a `namespace` tool (Codex's MCP servers: `mcp__vf_0` holding `echo`) flattened as
 * `<namespace>__<name>` (`mcp__vf_0__echo`), and custom (freeform) tools such as Codex's apply_patch
 * as a function of one text argument, `input`. Hosted tools (web search, file search, ...) have no
 * function form: they are left out and listed in `dropped`. The reply is written as output items
 * (reasoning, message, function_call, custom_tool_call), each call under the name and namespace the
 * agent offered it with, with a status that says whether the output-token limit cut it, whole or as
 * the typed events the openai package and Codex read (`response.created` ... `response.completed`).
 */
import { type Content, contentText, type Message, type ToolCall } from "../messages/message.ts";
import type { ToolDefinition } from "../tools/tool.ts";
import {
  type AnswerHead,
  bearerKey,
  type Dialect,
  type DialectAnswer,
  type DialectRequest,
  hasReply,
  pickSampling,
} from "./dialect.ts";
import { openAIError } from "./error-bodies.ts";
import { sseEvent, textPieces } from "./sse.ts";

type Item = Record<string, unknown>;

/** input_text / output_text / input_image parts as chat content parts. */
function chatContent(content: unknown): Content {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as Item[]).map((part) =>
    part.type === "input_image"
      ? { type: "image_url" as const, image_url: { url: String(part.image_url) } }
      : { type: "text" as const, text: String(part.text ?? "") },
  );
}

/** How a tool the model sees was offered to the agent, so its calls are said back that way. */
interface ToolOrigin {
  /** The tool's own name. */
  name: string;
  /** The namespace tool holding it, if any. */
  namespace?: string;
  /** A custom (freeform) tool: called with text, not JSON arguments. */
  custom: boolean;
}

/** A request's tools as the model sees them. */
interface ReadTools {
  /** Undefined when the body has no tools. */
  tools: ToolDefinition[] | undefined;
  /** By the name the model sees. */
  origins: Map<string, ToolOrigin>;
  dropped: string[];
}

/** The name the model sees for a tool of `namespace` (or none). */
function flatName(name: string, namespace: string | undefined): string {
  return namespace === undefined ? name : `${namespace}__${name}`;
}

/** The argument of a custom tool's function form. */
const CUSTOM_INPUT = "input";

/** A custom tool's function form: one text argument, the grammar it follows in the description. */
function customParameters(tool: Item): {
  description: string | undefined;
  parameters: Record<string, unknown>;
} {
  const format = tool.format as Item | undefined;
  const grammar =
    format?.type === "grammar" && typeof format.definition === "string"
      ? `\n\nThe ${CUSTOM_INPUT} is text in this ${String(format.syntax ?? "")} grammar:\n${format.definition}`
      : "";
  return {
    description:
      `${typeof tool.description === "string" ? tool.description : ""}${grammar}`.trim() || undefined,
    parameters: {
      type: "object",
      properties: { [CUSTOM_INPUT]: { type: "string", description: "The tool's input, as text." } },
      required: [CUSTOM_INPUT],
      additionalProperties: false,
    },
  };
}

/** Adds `tool` (inside `namespace`, when given) to `read`, flattened, or says why it cannot be. */
function readTool(tool: Item, read: ReadTools & { tools: ToolDefinition[] }, namespace?: string): void {
  const type = String(tool.type);
  if (type === "namespace" && namespace === undefined && Array.isArray(tool.tools)) {
    for (const inner of tool.tools as Item[]) readTool(inner, read, String(tool.name));
    return;
  }
  if ((type !== "function" && type !== "custom") || typeof tool.name !== "string") {
    const name = typeof tool.name === "string" ? tool.name : type;
    const where = namespace === undefined ? "" : ` in namespace "${namespace}"`;
    const why =
      type === "namespace"
        ? "a namespace inside a namespace, which a call cannot name"
        : "a hosted tool, run by OpenAI's servers, with no function form to offer the model";
    read.dropped.push(`tool "${name}" (${type})${where}: ${why}`);
    return;
  }
  const name = flatName(tool.name, namespace);
  const custom = type === "custom";
  const form = custom
    ? customParameters(tool)
    : {
        description: typeof tool.description === "string" ? tool.description : undefined,
        parameters: (tool.parameters as Record<string, unknown> | undefined) ?? {
          type: "object",
          properties: {},
        },
      };
  read.tools.push({
    type: "function",
    function: {
      name,
      ...(form.description !== undefined ? { description: form.description } : {}),
      parameters: form.parameters,
      // strict: false is the chat API's default, so only strict tools say so.
      ...(tool.strict === true ? { strict: true } : {}),
    },
  });
  read.origins.set(name, { name: tool.name, ...(namespace !== undefined ? { namespace } : {}), custom });
}

/** The tools of a body; see the file comment. */
function readTools(tools: unknown): ReadTools {
  const read = { tools: [] as ToolDefinition[], origins: new Map<string, ToolOrigin>(), dropped: [] };
  if (!Array.isArray(tools)) return { ...read, tools: undefined };
  for (const tool of tools as Item[]) readTool(tool, read);
  return read;
}

/** The chat messages an `input` (and `instructions`) stand for, or why they are refused. */
function chatMessages(body: Record<string, unknown>): Message[] | string {
  const messages: Message[] = [];
  if (typeof body.instructions === "string") messages.push({ role: "system", content: body.instructions });
  if (typeof body.input === "string") return [...messages, { role: "user", content: body.input }];
  if (!Array.isArray(body.input)) return "request body needs an input string or array";
  const addCall = (call: ToolCall) => {
    const last = messages[messages.length - 1];
    if (last?.role === "assistant") last.tool_calls = [...(last.tool_calls ?? []), call];
    else messages.push({ role: "assistant", content: null, tool_calls: [call] });
  };
  for (const item of body.input as Item[]) {
    const type = item.type ?? "message";
    if (type === "message") {
      const role = item.role === "developer" ? "system" : item.role;
      if (role !== "system" && role !== "user" && role !== "assistant")
        return `unknown input role ${String(role)}`;
      const content = chatContent(item.content);
      messages.push(
        role === "assistant"
          ? { role, content: typeof content === "string" ? content : contentText(content) }
          : { role, content },
      );
    } else if (type === "function_call") {
      const namespace = typeof item.namespace === "string" ? item.namespace : undefined;
      addCall({
        id: String(item.call_id),
        type: "function",
        function: { name: flatName(String(item.name), namespace), arguments: String(item.arguments) },
      });
    } else if (type === "custom_tool_call") {
      const namespace = typeof item.namespace === "string" ? item.namespace : undefined;
      addCall({
        id: String(item.call_id),
        type: "function",
        function: {
          name: flatName(String(item.name), namespace),
          arguments: JSON.stringify({ [CUSTOM_INPUT]: String(item.input ?? "") }),
        },
      });
    } else if (type === "function_call_output" || type === "custom_tool_call_output") {
      messages.push({ role: "tool", tool_call_id: String(item.call_id), content: chatContent(item.output) });
    }
    // Reasoning and other items carry nothing vf reads.
  }
  return messages;
}

function head(answer: AnswerHead) {
  return { id: answer.id, object: "response", created_at: answer.created, model: answer.model, error: null };
}

function usage(input: number, output: number) {
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + output,
  };
}

/** A custom tool call's text: the `input` argument of its function form, else the arguments as sent. */
function customInput(args: string): string {
  try {
    const parsed = JSON.parse(args) as unknown;
    const input = (parsed as Item | null)?.[CUSTOM_INPUT];
    if (typeof input === "string") return input;
  } catch {
    // Not JSON: the model wrote the text itself.
  }
  return args;
}

/** A tool call as the output item of the tool the agent offered: function_call or custom_tool_call. */
function callItem(call: ToolCall, id: string, origins: Map<string, ToolOrigin>): Item {
  const origin = origins.get(call.function.name);
  const named = origin
    ? { name: origin.name, ...(origin.namespace !== undefined ? { namespace: origin.namespace } : {}) }
    : { name: call.function.name };
  if (origin?.custom) {
    const input = customInput(call.function.arguments);
    return {
      type: "custom_tool_call",
      id: `ctc_${id}`,
      call_id: call.id,
      ...named,
      input,
      status: "completed",
    };
  }
  return {
    type: "function_call",
    id: `fc_${id}`,
    call_id: call.id,
    ...named,
    arguments: call.function.arguments,
    status: "completed",
  };
}

/** The output items of an answer, in order: reasoning, message, tool calls. */
function outputItems(answer: DialectAnswer, request: DialectRequest): Item[] {
  const output: Item[] = [];
  const { message } = answer;
  if (message.reasoning_content !== undefined) {
    output.push({
      type: "reasoning",
      id: `rs_${answer.id}`,
      summary: [{ type: "summary_text", text: message.reasoning_content }],
    });
  }
  const text = contentText(message.content);
  if (text !== "") {
    output.push({
      type: "message",
      id: `msg_${answer.id}`,
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text, annotations: [] }],
    });
  }
  const calls = message.tool_calls ?? [];
  // Only the names a reply calls are looked up, from the tools the request offered.
  const origins = calls.length > 0 ? readTools(request.body.tools).origins : new Map<string, ToolOrigin>();
  calls.forEach((call, i) => {
    output.push(callItem(call, `${answer.id}_${i}`, origins));
  });
  return output;
}

/** The whole response object of an answer. */
function responseObject(answer: DialectAnswer, output: Item[]): Item {
  const finish = answer.finishReason;
  const incomplete = finish === "length" || finish === "content_filter";
  return {
    ...head(answer),
    status: incomplete ? "incomplete" : "completed",
    incomplete_details: incomplete
      ? { reason: finish === "length" ? "max_output_tokens" : "content_filter" }
      : null,
    output,
    usage: usage(answer.usage.promptTokens, answer.usage.completionTokens),
  };
}

/** The events of one output item, from `output_item.added` to `output_item.done`. */
function itemEvents(item: Item, index: number, emit: (type: string, fields: Item) => void): void {
  const id = item.id;
  switch (item.type) {
    case "message": {
      const part = (item.content as Item[])[0]!;
      const text = part.text as string;
      emit("response.output_item.added", {
        output_index: index,
        item: { ...item, status: "in_progress", content: [] },
      });
      const at = { item_id: id, output_index: index, content_index: 0 };
      emit("response.content_part.added", { ...at, part: { ...part, text: "" } });
      for (const delta of textPieces(text))
        emit("response.output_text.delta", { ...at, delta, logprobs: [] });
      emit("response.output_text.done", { ...at, text, logprobs: [] });
      emit("response.content_part.done", { ...at, part });
      break;
    }
    case "function_call": {
      emit("response.output_item.added", {
        output_index: index,
        item: { ...item, arguments: "", status: "in_progress" },
      });
      const at = { item_id: id, output_index: index };
      emit("response.function_call_arguments.delta", { ...at, delta: item.arguments });
      emit("response.function_call_arguments.done", { ...at, name: item.name, arguments: item.arguments });
      break;
    }
    case "custom_tool_call": {
      emit("response.output_item.added", {
        output_index: index,
        item: { ...item, input: "", status: "in_progress" },
      });
      const at = { item_id: id, output_index: index };
      emit("response.custom_tool_call_input.delta", { ...at, delta: item.input });
      emit("response.custom_tool_call_input.done", { ...at, input: item.input });
      break;
    }
    default: {
      const summary = item.summary as Item[];
      emit("response.output_item.added", { output_index: index, item: { ...item, summary: [] } });
      summary.forEach((part, summaryIndex) => {
        const at = { item_id: id, output_index: index, summary_index: summaryIndex };
        emit("response.reasoning_summary_part.added", { ...at, part: { ...part, text: "" } });
        emit("response.reasoning_summary_text.delta", { ...at, delta: part.text });
        emit("response.reasoning_summary_text.done", { ...at, text: part.text });
        emit("response.reasoning_summary_part.done", { ...at, part });
      });
    }
  }
  emit("response.output_item.done", { output_index: index, item });
}

/** POST /v1/responses. */
export const responsesDialect: Dialect = {
  api: "openai_responses",
  path: "/v1/responses",
  idPrefix: "resp_",
  read: (body) => {
    const messages = chatMessages(body);
    if (typeof messages === "string") return messages;
    const reasoning = body.reasoning as { effort?: unknown } | undefined;
    const sampling = pickSampling(body, ["temperature", "top_p", "top_logprobs"], {
      max_output_tokens: "max_tokens",
    });
    if (typeof reasoning?.effort === "string") sampling.reasoning_effort = reasoning.effort;
    const { tools, dropped } = readTools(body.tools);
    return {
      model: String(body.model),
      messages,
      ...(tools !== undefined ? { tools } : {}),
      stream: body.stream === true,
      sampling,
      body,
      ...(dropped.length > 0 ? { dropped } : {}),
    };
  },
  keyOf: bearerKey,
  wantsTokens: () => false,
  answer: (answer, request) => JSON.stringify(responseObject(answer, outputItems(answer, request))),
  events: (answer, request) => {
    const events: string[] = [];
    let sequence = 0;
    const emit = (type: string, fields: Item) =>
      events.push(sseEvent({ type, sequence_number: sequence++, ...fields }, type));
    const whole = hasReply(answer)
      ? responseObject(answer, outputItems(answer, request))
      : { ...head(answer), status: "completed", incomplete_details: null, output: [], usage: usage(0, 0) };
    const started = { ...whole, status: "in_progress", incomplete_details: null, output: [], usage: null };
    emit("response.created", { response: started });
    emit("response.in_progress", { response: started });
    (whole.output as Item[]).forEach((item, index) => {
      itemEvents(item, index, emit);
    });
    emit(whole.status === "incomplete" ? "response.incomplete" : "response.completed", { response: whole });
    return events;
  },
  empty: (answer) =>
    JSON.stringify({
      ...head(answer),
      status: "completed",
      incomplete_details: null,
      output: [],
      usage: usage(0, 0),
    }),
  error: openAIError,
};
