/**
 * A chat request's prompt as token ids: its messages through the engine's chat template, with the
 * tool definitions (when the request offers tools) written into the system turn
 * (tokenizer/tools-section.ts).
 */
import { type ChatMessageInput, renderChat } from "../tokenizer/chat-template.ts";
import { withToolsSection } from "../tokenizer/tools-section.ts";
import { badRequest } from "./api-error.ts";
import type { RequestMessage, RequestTool } from "./request-schemas.ts";

/** The prompt tokens of a chat request (ends with the assistant marker unless told otherwise). */
export function chatPrompt(
  messages: readonly RequestMessage[],
  tools: readonly RequestTool[],
  addGenerationPrompt: boolean,
): number[] {
  const rendered = withToolsSection(messages.map(toTemplateMessage), tools);
  return renderChat(rendered, { addGenerationPrompt });
}

/** A request message in the template's shape: text only, `developer` as `system`. */
function toTemplateMessage(message: RequestMessage, index: number): ChatMessageInput {
  let content: string | null = null;
  if (typeof message.content === "string") {
    content = message.content;
  } else if (Array.isArray(message.content)) {
    const parts: string[] = [];
    message.content.forEach((part, p) => {
      if (part.type !== "text" || part.text === undefined) {
        throw badRequest(
          `messages.${index}.content.${p}: a "${part.type}" part cannot be read by this model, which reads text only: send text parts`,
          `messages.${index}.content`,
        );
      }
      parts.push(part.text);
    });
    content = parts.join("");
  }
  return {
    role: message.role === "developer" ? "system" : message.role,
    content,
    ...(message.tool_calls
      ? {
          tool_calls: message.tool_calls.map((call) => ({
            type: "function" as const,
            function: { name: call.function.name, arguments: call.function.arguments },
          })),
        }
      : {}),
  };
}
