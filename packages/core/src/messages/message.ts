/**
 * Chat messages in the OpenAI chat-completions shape (snake_case, as on the wire and in
 * results.jsonl), as zod schemas with types of the same name.
 */
import { z } from "zod";

export const TextPart = z.object({ type: z.literal("text"), text: z.string() });
export type TextPart = z.infer<typeof TextPart>;

export const ImagePart = z.object({
  type: z.literal("image_url"),
  image_url: z.object({ url: z.string(), detail: z.string().optional() }),
});
export type ImagePart = z.infer<typeof ImagePart>;

export const ContentPart = z.discriminatedUnion("type", [TextPart, ImagePart]);
export type ContentPart = z.infer<typeof ContentPart>;

/** A message's content: a string, or text and image parts. */
export const Content = z.union([z.string(), z.array(ContentPart)]);
export type Content = z.infer<typeof Content>;

/** One call of a tool by the model, its arguments as a JSON string. */
export const ToolCall = z.object({
  id: z.string(),
  type: z.literal("function").default("function"),
  function: z.object({ name: z.string(), arguments: z.string() }),
});
export type ToolCall = z.infer<typeof ToolCall>;

/** Instructions for the model. */
export const SystemMessage = z.object({ role: z.literal("system"), content: Content });
export type SystemMessage = z.infer<typeof SystemMessage>;

/** A user (or environment) turn. */
export const UserMessage = z.object({ role: z.literal("user"), content: Content });
export type UserMessage = z.infer<typeof UserMessage>;

/** A model turn: text and/or tool calls. */
export const AssistantMessage = z.object({
  role: z.literal("assistant"),
  content: Content.nullable().default(""),
  tool_calls: z.array(ToolCall).optional(),
  /** Reasoning text some providers return beside the content (DeepSeek, vLLM reasoning parsers). */
  reasoning_content: z.string().optional(),
});
export type AssistantMessage = z.infer<typeof AssistantMessage>;

/** A tool's result, answering the call with the same id. */
export const ToolMessage = z.object({
  role: z.literal("tool"),
  content: Content,
  tool_call_id: z.string(),
});
export type ToolMessage = z.infer<typeof ToolMessage>;

/** One chat message, discriminated by `role`. */
export const Message = z.discriminatedUnion("role", [
  SystemMessage,
  UserMessage,
  AssistantMessage,
  ToolMessage,
]);
export type Message = z.infer<typeof Message>;

/** A conversation: prompt or completion. */
export const Messages = z.array(Message);
export type Messages = Message[];

/** The text of a message's content: a string as is, content parts joined from their text parts. */
export function contentText(content: Content | null | undefined): string {
  if (content === null || content === undefined) return "";
  if (typeof content === "string") return content;
  return content
    .filter((part): part is TextPart => part.type === "text")
    .map((part) => part.text)
    .join("");
}

/** The assistant messages of a conversation, oldest first. */
export function assistantMessages(messages: Messages): AssistantMessage[] {
  return messages.filter((m): m is AssistantMessage => m.role === "assistant");
}

/** The text of the last assistant message, or "" when there is none. */
export function lastAssistantText(messages: Messages): string {
  const assistants = assistantMessages(messages);
  const last = assistants[assistants.length - 1];
  return last ? contentText(last.content) : "";
}
