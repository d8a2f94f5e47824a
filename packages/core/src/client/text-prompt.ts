/**
 * How a conversation becomes the text prompt of the completions API (`openai_completions`), which
 * takes a string, not messages. The default is verifiers' rendering: each message's text, in order,
 * separated by a blank line, with no role names and nothing appended, so a prompt of one user
 * message is sent exactly as written. A server whose model has a chat template of its own can be
 * given a renderer that writes it (vf does so for the engine's models, whose completions route reads
 * its special tokens from the text).
 */
import { UserError } from "../errors.ts";
import { contentText, type Messages } from "../messages/message.ts";

/** Renders the conversation so far as the text the model continues. */
export type TextPromptRenderer = (messages: Messages) => string;

/**
 * verifiers' rendering: message texts joined by a blank line. Images cannot be sent as text and are
 * refused.
 *
 * @example plainTextPrompt([{ role: "system", content: "Be brief." }, { role: "user", content: "2+2?" }]) // "Be brief.\n\n2+2?"
 */
export const plainTextPrompt: TextPromptRenderer = (messages) => {
  const parts: string[] = [];
  for (const message of messages) {
    if (Array.isArray(message.content) && message.content.some((part) => part.type !== "text")) {
      throw new UserError(
        "the completions API takes text only, and this prompt has an image: use the client type openai_chat_completions, openai_responses or anthropic_messages",
      );
    }
    parts.push(contentText(message.content));
  }
  return parts.join("\n\n");
};
