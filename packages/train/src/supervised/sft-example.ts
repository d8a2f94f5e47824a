/**
 * Supervised examples: a conversation in OpenAI's message shape becomes one training sequence,
 * rendered with the chat template, whose trained tokens are the assistant turns' text and their
 * end-of-turn marker (never the role markers, system, user or tool turns).
 */

import {
  type BatchItem,
  ChatMessage,
  type ChatMessageInput,
  ChatTool,
  renderChat,
  withToolsSection,
} from "@vf-rl/engine";
import { z } from "zod";

/**
 * One line of an SFT JSONL file (OpenAI's fine-tuning format): a conversation with at least one
 * assistant turn, and the tools it was offered, if any.
 */
export const SftConversation = z.object({
  messages: z
    .array(ChatMessage)
    .min(1)
    .refine((messages) => messages.some((m) => m.role === "assistant"), {
      message: "has no assistant message: nothing to train on",
    }),
  tools: z.array(ChatTool).nullish(),
});
export type SftConversation = z.infer<typeof SftConversation>;

/**
 * A conversation as the model reads it: its tools described in the system turn, as the engine's
 * server describes a request's tools, so training sees the prompts sampling will.
 */
export function modelMessages(conversation: SftConversation): ChatMessageInput[] {
  return withToolsSection(conversation.messages, conversation.tools ?? []);
}

/**
 * The training sequence of a conversation: mask 1 on each assistant turn's content, tool calls and
 * <|eot|>. The template renders every turn the same whatever follows it, so a turn's tokens are
 * the difference between rendering the conversation up to it and up to the one before.
 */
export function conversationItem(messages: readonly ChatMessageInput[]): BatchItem {
  const tokens = renderChat(messages);
  const mask: (0 | 1)[] = new Array(tokens.length).fill(0);
  let start = renderChat([]).length;
  messages.forEach((message, i) => {
    const end = renderChat(messages.slice(0, i + 1)).length;
    // the role marker is the first token of the turn: it is the prompt, not the answer
    if (message.role === "assistant") mask.fill(1, start + 1, end);
    start = end;
  });
  return { tokens, mask };
}
