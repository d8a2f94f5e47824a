/**
 * Chat messages and tool definitions in Anthropic's Messages shapes (`anthropic_messages`): system
 * messages are taken out into the `system` prompt; an assistant turn's tool calls become tool_use
 * blocks (arguments parsed to the object Anthropic wants); consecutive tool messages become one user
 * turn of tool_result blocks answering the calls by id; images become image blocks. Tools are
 * `{name, description, input_schema}`.
 */
import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageParam,
  TextBlockParam,
  Tool,
  ToolResultBlockParam,
} from "@anthropic-ai/sdk/resources/messages/messages";
import { UserError } from "../errors.ts";
import { type Content, contentText, type Messages, type ToolCall } from "../messages/message.ts";
import type { ToolDefinition } from "../tools/tool.ts";

/** The system prompt (system messages joined by a blank line; undefined when none) and the turns. */
export interface AnthropicPrompt {
  system: string | undefined;
  messages: MessageParam[];
}

/** Splits a conversation into Anthropic's system prompt and turns. */
export function anthropicPrompt(conversation: Messages): AnthropicPrompt {
  const system: string[] = [];
  const messages: MessageParam[] = [];
  let toolResults: ToolResultBlockParam[] = [];
  const flushToolResults = () => {
    if (toolResults.length > 0) messages.push({ role: "user", content: toolResults });
    toolResults = [];
  };
  for (const message of conversation) {
    if (message.role === "tool") {
      toolResults.push({
        type: "tool_result",
        tool_use_id: message.tool_call_id,
        content: typeof message.content === "string" ? message.content : blocks(message.content),
      });
      continue;
    }
    flushToolResults();
    switch (message.role) {
      case "system":
        system.push(contentText(message.content));
        break;
      case "user":
        messages.push({
          role: "user",
          content: typeof message.content === "string" ? message.content : blocks(message.content),
        });
        break;
      case "assistant": {
        const content: ContentBlockParam[] = [];
        const text = contentText(message.content);
        // Anthropic refuses empty text blocks.
        if (text !== "") content.push({ type: "text", text });
        for (const call of message.tool_calls ?? []) {
          content.push({ type: "tool_use", id: call.id, name: call.function.name, input: toolInput(call) });
        }
        messages.push({ role: "assistant", content: content.length > 0 ? content : text });
        break;
      }
    }
  }
  flushToolResults();
  return { system: system.length > 0 ? system.join("\n\n") : undefined, messages };
}

/** The tools as Anthropic tool definitions. */
export function anthropicTools(tools: ToolDefinition[]): Tool[] {
  return tools.map((tool) => ({
    name: tool.function.name,
    ...(tool.function.description !== undefined ? { description: tool.function.description } : {}),
    input_schema: tool.function.parameters as Tool["input_schema"],
  }));
}

/** A tool call's arguments as the object a tool_use block holds. */
function toolInput(call: ToolCall): Record<string, unknown> {
  let input: unknown;
  try {
    input = JSON.parse(call.function.arguments);
  } catch {
    input = undefined;
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new UserError(
      `tool call ${call.id} (${call.function.name}) has arguments that are not a JSON object (${call.function.arguments.slice(0, 80)}): Anthropic's tool_use input must be one; fix the conversation's tool calls`,
    );
  }
  return input as Record<string, unknown>;
}

function blocks(content: Exclude<Content, string>): Array<TextBlockParam | ImageBlockParam> {
  return content.map((part) =>
    part.type === "text" ? { type: "text", text: part.text } : image(part.image_url.url),
  );
}

/** A data URL becomes a base64 image block; any other URL a URL image block. */
function image(url: string): ImageBlockParam {
  const data = /^data:(image\/(?:png|jpeg|gif|webp));base64,(.*)$/s.exec(url);
  if (data)
    return { type: "image", source: { type: "base64", media_type: data[1] as "image/png", data: data[2]! } };
  return { type: "image", source: { type: "url", url } };
}
