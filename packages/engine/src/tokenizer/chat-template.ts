/**
 * The chat template: OpenAI-shaped messages to token ids. Each message renders as
 *
 *   <|role|> content-bytes [tool calls] <|eot|>
 *
 * after one leading <|bos|>, and the generation prompt is <|assistant|>. Every message renders the
 * same whatever follows it, so rendering turns 1..k is an exact token prefix of rendering 1..k+1
 * (with or without the generation prompt before an assistant turn): a multi-turn rollout is one
 * training sequence.
 *
 * An assistant's tool calls are written after its content, each as
 *
 *   <tool_call>{"name":"NAME","arguments":{...}}</tool_call>
 *
 * (arguments as parsed JSON when they parse, else as the raw string); `parseToolCalls` reads them
 * back from generated text. A tool message renders its content only: results follow the calls' order.
 */
import { z } from "zod";
import { tokenizer } from "./tokenizer.ts";

/** A tool call of an assistant message, as the OpenAI API writes it (arguments as a JSON string). */
export const ChatToolCall = z.object({
  id: z.string().optional(),
  type: z.literal("function").default("function"),
  function: z.object({ name: z.string(), arguments: z.string() }),
});
export type ChatToolCall = z.infer<typeof ChatToolCall>;

const TextPart = z.object({ type: z.literal("text"), text: z.string() });

/** A chat message in the OpenAI shape; other fields (name, refusal, ...) are ignored. */
export const ChatMessage = z.object({
  role: z.enum(["system", "user", "assistant", "tool"]),
  /** Text, or text parts (this model reads no images); null for an assistant turn with only tool calls. */
  content: z.union([z.string(), z.array(TextPart), z.null()]).optional(),
  tool_calls: z.array(ChatToolCall).optional(),
  tool_call_id: z.string().optional(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;
export type ChatMessageInput = z.input<typeof ChatMessage>;

/** Options of `renderChat`. */
export interface RenderChatOptions {
  /** End with <|assistant|> so the model writes the next assistant turn (default false). */
  addGenerationPrompt?: boolean;
}

const ROLE_TOKEN = {
  system: tokenizer.special("<|system|>"),
  user: tokenizer.special("<|user|>"),
  assistant: tokenizer.special("<|assistant|>"),
  tool: tokenizer.special("<|tool|>"),
} as const;

/** Token ids of a conversation. Throws a ZodError for a message that is not OpenAI-shaped. */
export function renderChat(messages: readonly ChatMessageInput[], options: RenderChatOptions = {}): number[] {
  const ids = [tokenizer.bos];
  for (const input of messages) {
    const message = ChatMessage.parse(input);
    ids.push(ROLE_TOKEN[message.role]);
    ids.push(...tokenizer.encode(messageText(message)));
    ids.push(tokenizer.eot);
  }
  if (options.addGenerationPrompt) ids.push(ROLE_TOKEN.assistant);
  return ids;
}

/** The text a message renders between its role marker and <|eot|>: content, then tool calls. */
export function messageText(message: ChatMessage): string {
  const content = message.content ?? "";
  let text = typeof content === "string" ? content : content.map((p) => p.text).join("");
  for (const call of message.tool_calls ?? []) text += renderToolCall(call);
  return text;
}

/** `<tool_call>{"name":...,"arguments":...}</tool_call>` for one call. */
export function renderToolCall(call: ChatToolCall): string {
  let args: unknown = call.function.arguments;
  try {
    args = JSON.parse(call.function.arguments);
  } catch {
    // arguments that are not JSON are written as the string they are; parseToolCalls returns them as is
  }
  return `<tool_call>${JSON.stringify({ name: call.function.name, arguments: args })}</tool_call>`;
}

/** A tool call read back from generated text; `arguments` is a JSON string as in the OpenAI API. */
export interface ParsedToolCall {
  name: string;
  arguments: string;
}

/**
 * Splits generated assistant text into content and tool calls. A block that is not valid
 * `<tool_call>{"name":...,"arguments":...}</tool_call>` JSON stays in the content as plain text.
 */
export function parseToolCalls(text: string): { content: string; toolCalls: ParsedToolCall[] } {
  const toolCalls: ParsedToolCall[] = [];
  const content = text.replace(/<tool_call>([\s\S]*?)<\/tool_call>/g, (block, json: string) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch {
      return block;
    }
    if (
      typeof parsed !== "object" ||
      parsed === null ||
      typeof (parsed as { name?: unknown }).name !== "string"
    ) {
      return block;
    }
    const { name, arguments: args } = parsed as { name: string; arguments?: unknown };
    toolCalls.push({ name, arguments: typeof args === "string" ? args : JSON.stringify(args ?? {}) });
    return "";
  });
  return { content, toolCalls };
}
