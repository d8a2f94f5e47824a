/**
 * Reads a Responses API response (`openai_responses`) into a `ModelResponse`: output_text parts are
 * the content, function_call items the tool calls (by call_id), reasoning summaries the
 * reasoning_content, and `status` with `incomplete_details` the finish reason ("length" when the
 * output-token limit cut it, "content_filter", else "tool_calls" or "stop"). Usage is input/output
 * tokens. A failed response, or one with no text and no tool calls, is rejected with the typed error.
 */
import { z } from "zod";
import { EmptyModelResponseError, InvalidModelResponseError } from "../errors.ts";
import type { AssistantMessage, ToolCall } from "../messages/message.ts";
import type { FinishReason, ModelResponse } from "./model-client.ts";
import { checkedObject, invalidShape } from "./response-checks.ts";

const TextPiece = z.object({ text: z.string() });

/** The output items vf reads; others (web search, MCP, ...) are skipped. */
const MessageItem = z.object({
  content: z.array(
    z.object({ type: z.string(), text: z.string().optional(), refusal: z.string().optional() }),
  ),
});
const FunctionCallItem = z.object({ call_id: z.string(), name: z.string(), arguments: z.string() });
const ReasoningItem = z.object({
  summary: z.array(TextPiece).nullish(),
  content: z.array(TextPiece).nullish(),
});

/** The fields of a response that vf reads. */
export const ResponsesBody = z.object({
  id: z.string().nullish(),
  model: z.string().nullish(),
  status: z.string().nullish(),
  error: z.object({ code: z.string().nullish(), message: z.string() }).nullish(),
  incomplete_details: z.object({ reason: z.string().nullish() }).nullish(),
  output: z.array(z.looseObject({ type: z.string() })).nullish(),
  usage: z.object({ input_tokens: z.number(), output_tokens: z.number() }).nullish(),
});
export type ResponsesBody = z.infer<typeof ResponsesBody>;

const API = "the OpenAI Responses API";

/** Reads a response body from `url`, or throws the typed error saying why it can't be used. */
export function responsesToModelResponse(body: unknown, url: string): ModelResponse {
  const parsed = ResponsesBody.safeParse(checkedObject(body, url, "response"));
  if (!parsed.success) throw invalidShape(url, parsed.error, "response", API);
  const response = parsed.data;
  if (response.error || response.status === "failed") {
    throw new InvalidModelResponseError(
      `the model endpoint ${url} returned a failed response (${response.error?.code ?? "no code"}: ${response.error?.message ?? "no message"}): check the model and the request`,
    );
  }
  let content = "";
  let reasoning = "";
  const toolCalls: ToolCall[] = [];
  for (const [i, item] of (response.output ?? []).entries()) {
    const read = <T>(schema: z.ZodType<T>): T => {
      const result = schema.safeParse(item);
      if (!result.success) throw invalidShape(url, prefixed(result.error, i), "response", API);
      return result.data;
    };
    if (item.type === "message") {
      for (const part of read(MessageItem).content) {
        if (part.type === "output_text") content += part.text ?? "";
        else if (part.type === "refusal") content += part.refusal ?? "";
      }
    } else if (item.type === "function_call") {
      const call = read(FunctionCallItem);
      toolCalls.push({
        id: call.call_id,
        type: "function",
        function: { name: call.name, arguments: call.arguments },
      });
    } else if (item.type === "reasoning") {
      const thought = read(ReasoningItem);
      const pieces = thought.summary?.length ? thought.summary : (thought.content ?? []);
      reasoning += pieces.map((piece) => piece.text).join("\n");
    }
  }
  const finishReason = finishReasonOf(response, toolCalls.length > 0);
  if (content === "" && toolCalls.length === 0) {
    throw new EmptyModelResponseError(
      `the model endpoint ${url} returned no text and no tool calls (status ${String(response.status)}${
        response.incomplete_details?.reason ? `, ${response.incomplete_details.reason}` : ""
      }): raise max_tokens if the output-token limit cut it, else check the model`,
    );
  }
  const message: AssistantMessage = { role: "assistant", content: content === "" ? null : content };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (reasoning !== "") message.reasoning_content = reasoning;
  return {
    id: response.id ?? "",
    model: response.model ?? "",
    message,
    finishReason,
    usage: {
      promptTokens: response.usage?.input_tokens ?? 0,
      completionTokens: response.usage?.output_tokens ?? 0,
    },
    tokens: null,
  };
}

/** The issues of an output item's parse, with the item's place in front of their paths. */
function prefixed(error: z.ZodError, index: number): z.ZodError {
  return new z.ZodError(error.issues.map((issue) => ({ ...issue, path: ["output", index, ...issue.path] })));
}

/** An incomplete response was cut short, whatever it holds; a complete one stopped or called tools. */
function finishReasonOf(response: ResponsesBody, hasToolCalls: boolean): FinishReason {
  if (response.status === "incomplete") {
    const reason = response.incomplete_details?.reason;
    if (reason === "max_output_tokens") return "length";
    if (reason === "content_filter") return "content_filter";
    return "other";
  }
  return hasToolCalls ? "tool_calls" : "stop";
}
