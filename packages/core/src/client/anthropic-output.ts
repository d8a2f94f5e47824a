/**
 * Reads an Anthropic Messages response (`anthropic_messages`) into a `ModelResponse`: text blocks are
 * the content, tool_use blocks the tool calls (input re-encoded as the JSON string vf's messages
 * hold), thinking blocks the reasoning_content. `stop_reason` maps to the OpenAI finish reasons
 * (end_turn and stop_sequence: "stop"; max_tokens and model_context_window_exceeded: "length";
 * tool_use: "tool_calls"; refusal: "content_filter"). Prompt tokens count cached input too, which
 * Anthropic reports apart from `input_tokens`.
 */
import { z } from "zod";
import { EmptyModelResponseError } from "../errors.ts";
import type { AssistantMessage, ToolCall } from "../messages/message.ts";
import type { FinishReason, ModelResponse } from "./model-client.ts";
import { checkedObject, invalidShape } from "./response-checks.ts";

/** The fields of a message that vf reads; block kinds it does not read are skipped. */
export const AnthropicMessageBody = z.object({
  id: z.string().nullish(),
  model: z.string().nullish(),
  content: z.array(
    z.object({
      type: z.string(),
      text: z.string().optional(),
      thinking: z.string().optional(),
      id: z.string().optional(),
      name: z.string().optional(),
      input: z.unknown().optional(),
    }),
  ),
  stop_reason: z.string().nullish(),
  usage: z
    .object({
      input_tokens: z.number(),
      output_tokens: z.number(),
      cache_creation_input_tokens: z.number().nullish(),
      cache_read_input_tokens: z.number().nullish(),
    })
    .nullish(),
});
export type AnthropicMessageBody = z.infer<typeof AnthropicMessageBody>;

const STOP_REASONS: Record<string, FinishReason> = {
  end_turn: "stop",
  stop_sequence: "stop",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  tool_use: "tool_calls",
  refusal: "content_filter",
};

/** Reads a message body from `url`, or throws the typed error saying why it can't be used. */
export function anthropicToModelResponse(body: unknown, url: string): ModelResponse {
  const parsed = AnthropicMessageBody.safeParse(checkedObject(body, url, "message"));
  if (!parsed.success) throw invalidShape(url, parsed.error, "message", "Anthropic's Messages API");
  const response = parsed.data;
  let content = "";
  let reasoning = "";
  const toolCalls: ToolCall[] = [];
  for (const block of response.content) {
    if (block.type === "text") content += block.text ?? "";
    else if (block.type === "thinking") reasoning += block.thinking ?? "";
    else if (block.type === "tool_use" && block.id !== undefined && block.name !== undefined) {
      toolCalls.push({
        id: block.id,
        type: "function",
        function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
      });
    }
  }
  if (content === "" && toolCalls.length === 0) {
    throw new EmptyModelResponseError(
      `the model endpoint ${url} returned no text and no tool calls (stop_reason ${String(response.stop_reason)}): raise max_tokens if it is "max_tokens", else check the model`,
    );
  }
  const message: AssistantMessage = { role: "assistant", content: content === "" ? null : content };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (reasoning !== "") message.reasoning_content = reasoning;
  const usage = response.usage;
  return {
    id: response.id ?? "",
    model: response.model ?? "",
    message,
    finishReason: STOP_REASONS[response.stop_reason ?? ""] ?? "other",
    usage: {
      promptTokens:
        (usage?.input_tokens ?? 0) +
        (usage?.cache_creation_input_tokens ?? 0) +
        (usage?.cache_read_input_tokens ?? 0),
      completionTokens: usage?.output_tokens ?? 0,
    },
    tokens: null,
  };
}
