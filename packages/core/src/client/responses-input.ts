/**
 * Chat messages and tool definitions in the Responses API's shapes (`openai_responses`): system and
 * user messages become message items with input_text/input_image parts, an assistant turn becomes its
 * message item followed by one function_call item per tool call, and a tool message becomes the
 * function_call_output item answering the call with its id. Tools are flattened to
 * `{type: "function", name, description, parameters, strict}`.
 */
import type { FunctionTool, ResponseInputItem } from "openai/resources/responses/responses";
import type { Content, Messages } from "../messages/message.ts";
import type { ToolDefinition } from "../tools/tool.ts";

/** The `input` items of a conversation, in order. */
export function responsesInput(messages: Messages): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  for (const message of messages) {
    switch (message.role) {
      case "system":
      case "user":
        items.push({ type: "message", role: message.role, content: inputContent(message.content) });
        break;
      case "assistant": {
        const text = typeof message.content === "string" ? message.content : textOf(message.content);
        if (text !== "" || !message.tool_calls?.length) {
          items.push({ type: "message", role: "assistant", content: text });
        }
        for (const call of message.tool_calls ?? []) {
          items.push({
            type: "function_call",
            call_id: call.id,
            name: call.function.name,
            arguments: call.function.arguments,
          });
        }
        break;
      }
      case "tool":
        items.push({
          type: "function_call_output",
          call_id: message.tool_call_id,
          output: typeof message.content === "string" ? message.content : inputParts(message.content),
        });
        break;
    }
  }
  return items;
}

/**
 * The tools as function tools. `strict` stays off unless the tool asks for it: the Responses API
 * turns it on by default, and strict mode refuses the optional properties vf's zod schemas allow.
 */
export function responsesTools(tools: ToolDefinition[]): FunctionTool[] {
  return tools.map((tool) => ({
    type: "function",
    name: tool.function.name,
    ...(tool.function.description !== undefined ? { description: tool.function.description } : {}),
    parameters: tool.function.parameters,
    strict: tool.function.strict ?? false,
  }));
}

type InputPart =
  | { type: "input_text"; text: string }
  | { type: "input_image"; image_url: string; detail: "auto" };

function inputContent(content: Content): string | InputPart[] {
  return typeof content === "string" ? content : inputParts(content);
}

function inputParts(content: Exclude<Content, string>): InputPart[] {
  return content.map((part) =>
    part.type === "text"
      ? { type: "input_text", text: part.text }
      : { type: "input_image", image_url: part.image_url.url, detail: "auto" },
  );
}

function textOf(content: Content | null): string {
  if (content === null) return "";
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" ? part.text : "")).join("");
}
