/**
 * OpenAI's Responses API (POST /v1/responses): `instructions` and `input` items read as chat
 * messages (function_call items as the assistant's tool calls, function_call_output items as tool
 * messages), function tools as chat tools; the reply is written as output items (reasoning, message,
 * function_call) with a status that says whether the output-token limit cut it, whole or as the
 * typed events the openai package and Codex read (`response.created` ... `response.completed`).
 */
import { type Content, contentText, type Message } from "../messages/message.ts";
import {
  type AnswerHead,
  bearerKey,
  type Dialect,
  type DialectAnswer,
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

/** The chat messages an `input` (and `instructions`) stand for, or why they are refused. */
function chatMessages(body: Record<string, unknown>): Message[] | string {
  const messages: Message[] = [];
  if (typeof body.instructions === "string") messages.push({ role: "system", content: body.instructions });
  if (typeof body.input === "string") return [...messages, { role: "user", content: body.input }];
  if (!Array.isArray(body.input)) return "request body needs an input string or array";
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
      const call = {
        id: String(item.call_id),
        type: "function" as const,
        function: { name: String(item.name), arguments: String(item.arguments) },
      };
      const last = messages[messages.length - 1];
      if (last?.role === "assistant") last.tool_calls = [...(last.tool_calls ?? []), call];
      else messages.push({ role: "assistant", content: null, tool_calls: [call] });
    } else if (type === "function_call_output") {
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

/** The output items of an answer, in order: reasoning, message, function calls. */
function outputItems(answer: DialectAnswer): Item[] {
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
  (message.tool_calls ?? []).forEach((call, i) => {
    output.push({
      type: "function_call",
      id: `fc_${answer.id}_${i}`,
      call_id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
      status: "completed",
    });
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
    const tools = Array.isArray(body.tools)
      ? (body.tools as Item[])
          .filter((tool) => tool.type === "function")
          .map((tool) => ({
            type: "function" as const,
            function: {
              name: String(tool.name),
              ...(typeof tool.description === "string" ? { description: tool.description } : {}),
              parameters: (tool.parameters as Record<string, unknown> | undefined) ?? {
                type: "object",
                properties: {},
              },
              // strict: false is the chat API's default, so only strict tools say so.
              ...(tool.strict === true ? { strict: true } : {}),
            },
          }))
      : undefined;
    return {
      model: String(body.model),
      messages,
      ...(tools !== undefined ? { tools } : {}),
      stream: body.stream === true,
      sampling,
      body,
    };
  },
  keyOf: bearerKey,
  wantsTokens: () => false,
  answer: (answer) => JSON.stringify(responseObject(answer, outputItems(answer))),
  events: (answer) => {
    const events: string[] = [];
    let sequence = 0;
    const emit = (type: string, fields: Item) =>
      events.push(sseEvent({ type, sequence_number: sequence++, ...fields }, type));
    const whole = hasReply(answer)
      ? responseObject(answer, outputItems(answer))
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
