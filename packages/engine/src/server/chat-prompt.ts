/**
 * A chat request's prompt as token ids: its messages through the engine's chat template, with the
 * tool definitions (when the request offers tools) written into the system turn as a section that
 * reads:
 *
 *   # Tools
 *
 *   You can call these functions. Each is described by one line of JSON:
 *   {"name":"add","description":"Adds two numbers.","parameters":{...}}
 *
 *   To call one, write <tool_call>{"name": "NAME", "arguments": {...}}</tool_call> (one block per
 *   call) and end your turn; the results come back as tool messages, in the order of the calls.
 *
 * The section follows the request's own system message (after a blank line) when the first message
 * is one, else it is a system message of its own at the start.
 */
import { type ChatMessageInput, renderChat } from "../tokenizer/chat-template.ts";
import { badRequest } from "./api-error.ts";
import type { RequestMessage, RequestTool } from "./request-schemas.ts";

/** The system-turn section that describes `tools` to the model. */
export function toolsSection(tools: readonly RequestTool[]): string {
  const lines = tools.map((t) =>
    JSON.stringify({
      name: t.function.name,
      ...(t.function.description ? { description: t.function.description } : {}),
      parameters: t.function.parameters ?? { type: "object", properties: {} },
    }),
  );
  return [
    "# Tools",
    "",
    "You can call these functions. Each is described by one line of JSON:",
    ...lines,
    "",
    'To call one, write <tool_call>{"name": "NAME", "arguments": {...}}</tool_call> (one block per call) ' +
      "and end your turn; the results come back as tool messages, in the order of the calls.",
  ].join("\n");
}

/** The prompt tokens of a chat request (ends with the assistant marker unless told otherwise). */
export function chatPrompt(
  messages: readonly RequestMessage[],
  tools: readonly RequestTool[],
  addGenerationPrompt: boolean,
): number[] {
  const rendered = messages.map(toTemplateMessage);
  if (tools.length > 0) {
    const section = toolsSection(tools);
    const first = rendered[0];
    if (first?.role === "system") {
      const text = typeof first.content === "string" ? first.content : "";
      rendered[0] = { ...first, content: text === "" ? section : `${text}\n\n${section}` };
    } else {
      rendered.unshift({ role: "system", content: section });
    }
  }
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
