/**
 * OpenAI's Responses API as the scripted server speaks it (POST /v1/responses): `instructions` and
 * `input` items read as chat messages (function_call items as the assistant's tool calls,
 * function_call_output items as tool messages), function tools as OpenAI chat tools; the reply comes
 * back as output items (reasoning, message, function_call) with a status that says whether the
 * output-token limit cut it.
 */
import type { Content, Message } from "../messages/message.ts";
import { finishReasonOf, wireMessage } from "./scripted-completion.ts";
import { hasBearer, openAIError, type ScriptedDialect } from "./scripted-dialect.ts";
import type { ScriptedRequest } from "./scripted-reply.ts";
import { countTokens, renderCompletion, renderPrompt } from "./scripted-tokens.ts";

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

/** The chat messages an `input` (and `instructions`) stand for. */
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
      messages.push({ role, content: chatContent(item.content) } as Message);
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
    // Reasoning and other items carry nothing a script reads.
  }
  return messages;
}

/** POST /v1/responses. */
export const responsesDialect: ScriptedDialect = {
  api: "openai_responses",
  path: "/v1/responses",
  idPrefix: "resp_scripted_",
  view: (body) => {
    const messages = chatMessages(body);
    if (typeof messages === "string") return messages;
    const view: ScriptedRequest = { ...body, model: String(body.model), messages };
    if (Array.isArray(body.tools)) {
      view.tools = (body.tools as Item[])
        .filter((tool) => tool.type === "function")
        .map((tool) => ({
          type: "function" as const,
          function: {
            name: String(tool.name),
            ...(typeof tool.description === "string" ? { description: tool.description } : {}),
            parameters: tool.parameters as Record<string, unknown>,
            // strict: false is the chat API's default, so only strict tools say so.
            ...(tool.strict === true ? { strict: true } : {}),
          },
        }));
    }
    return view;
  },
  hasKey: hasBearer,
  wantsTokens: () => false,
  message: (view, reply, context) => {
    const output: Item[] = [];
    if (reply.reasoningContent !== undefined) {
      output.push({
        type: "reasoning",
        id: `rs_scripted_${context.index}`,
        summary: [{ type: "summary_text", text: reply.reasoningContent }],
      });
    }
    if (reply.content) {
      output.push({
        type: "message",
        id: `msg_scripted_${context.index}`,
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text: reply.content, annotations: [] }],
      });
    }
    const message = wireMessage(reply, context.index);
    const calls =
      (message.tool_calls as Array<{ id: string; function: { name: string; arguments: string } }>) ?? [];
    calls.forEach((call, i) => {
      output.push({
        type: "function_call",
        id: `fc_scripted_${context.index}_${i}`,
        call_id: call.id,
        name: call.function.name,
        arguments: call.function.arguments,
        status: "completed",
      });
    });
    const finish = finishReasonOf(reply);
    const incomplete = finish === "length" || finish === "content_filter";
    const inputTokens = countTokens(renderPrompt(view.messages, view.tools));
    const outputTokens = countTokens(renderCompletion(message as { role: string }));
    return JSON.stringify({
      ...head(view, context),
      status: incomplete ? "incomplete" : "completed",
      incomplete_details: incomplete
        ? { reason: finish === "length" ? "max_output_tokens" : "content_filter" }
        : null,
      output,
      usage: usage(inputTokens, outputTokens),
    });
  },
  empty: (view, context) =>
    JSON.stringify({
      ...head(view, context),
      status: "completed",
      incomplete_details: null,
      output: [],
      usage: usage(0, 0),
    }),
  error: openAIError,
};

function head(view: ScriptedRequest, context: { id: string; created: number }) {
  return { id: context.id, object: "response", created_at: context.created, model: view.model, error: null };
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
