/**
 * Chat messages between vf's shape (OpenAI's: tool calls as `{id, type, function: {name,
 * arguments}}`) and verifiers v1's typed messages (tool calls flattened to `{id, name, arguments}`,
 * unset fields as null, content parts only text and image_url). Reading accepts either shape, so a
 * task dumped by Python and a task printed by `vf env tasks` both run.
 */
import type { AssistantMessage, Content, Message, Messages, ToolCall } from "@vf-rl/core";
import { z } from "zod";

const WirePart = z.looseObject({ type: z.string() });
const WireContent = z.union([z.string(), z.array(WirePart)]).nullish();

/** A tool call flattened (`{id, name, arguments}`, verifiers) or nested under `function` (OpenAI, vf). */
const WireToolCall = z
  .looseObject({
    id: z.string(),
    name: z.string().optional(),
    arguments: z.string().optional(),
    function: z
      .object({ name: z.string(), arguments: z.union([z.string(), z.record(z.string(), z.unknown())]) })
      .optional(),
  })
  .refine(
    (call) => call.function !== undefined || (call.name !== undefined && call.arguments !== undefined),
    {
      message: "a tool call needs name and arguments, or function.name and function.arguments",
    },
  );

/** One message as either side sends it. */
export const WireMessage = z.discriminatedUnion("role", [
  z.looseObject({ role: z.literal("system"), content: WireContent }),
  z.looseObject({ role: z.literal("user"), content: WireContent }),
  z.looseObject({
    role: z.literal("assistant"),
    content: WireContent,
    reasoning_content: z.string().nullish(),
    tool_calls: z.array(WireToolCall).nullish(),
  }),
  z.looseObject({ role: z.literal("tool"), content: WireContent, tool_call_id: z.string() }),
]);
export type WireMessage = z.infer<typeof WireMessage>;

/** verifiers v1's `Message` as it validates: what traces and task prompts carry. */
export type V1Message =
  | { role: "system" | "user"; content: V1Content }
  | {
      role: "assistant";
      content: string | null;
      reasoning_content?: string;
      tool_calls?: Array<{ id: string; name: string; arguments: string }>;
    }
  | { role: "tool"; tool_call_id: string; content: V1Content };
type V1Content =
  | string
  | Array<{ type: "text"; text: string } | { type: "image_url"; image_url: { url: string } }>;

/** A wire message as vf's `Message`. */
export function fromWireMessage(message: WireMessage): Message {
  switch (message.role) {
    case "system":
    case "user":
      return { role: message.role, content: readContent(message.content) };
    case "tool":
      return { role: "tool", tool_call_id: message.tool_call_id, content: readContent(message.content) };
    case "assistant": {
      const out: AssistantMessage = {
        role: "assistant",
        content:
          message.content === null || message.content === undefined ? null : readContent(message.content),
      };
      if (message.tool_calls?.length) out.tool_calls = message.tool_calls.map(readToolCall);
      if (message.reasoning_content) out.reasoning_content = message.reasoning_content;
      return out;
    }
  }
}

/** vf's message as verifiers v1 types it. */
export function toV1Message(message: Message): V1Message {
  switch (message.role) {
    case "system":
    case "user":
      return { role: message.role, content: v1Content(message.content) };
    case "tool":
      return { role: "tool", tool_call_id: message.tool_call_id, content: v1Content(message.content) };
    case "assistant": {
      const content = message.content;
      const out: V1Message = {
        role: "assistant",
        content: content === null ? null : typeof content === "string" ? content : textOf(content),
      };
      if (message.reasoning_content) out.reasoning_content = message.reasoning_content;
      if (message.tool_calls?.length) {
        out.tool_calls = message.tool_calls.map((call) => ({
          id: call.id,
          name: call.function.name,
          arguments: call.function.arguments,
        }));
      }
      return out;
    }
  }
}

/** Wire messages (either shape) as vf's `Messages`. */
export function fromWireMessages(messages: readonly WireMessage[]): Messages {
  return messages.map(fromWireMessage);
}

function readToolCall(call: z.infer<typeof WireToolCall>): ToolCall {
  if (call.function) {
    const args = call.function.arguments;
    return {
      id: call.id,
      type: "function",
      function: {
        name: call.function.name,
        arguments: typeof args === "string" ? args : JSON.stringify(args),
      },
    };
  }
  return {
    id: call.id,
    type: "function",
    function: { name: call.name ?? "", arguments: call.arguments ?? "" },
  };
}

/** Content with the parts vf knows (text, image_url); others are dropped as verifiers v1 drops them. */
function readContent(content: z.infer<typeof WireContent>): Content {
  if (content === null || content === undefined) return "";
  if (typeof content === "string") return content;
  const parts: Exclude<Content, string> = [];
  for (const part of content) {
    if (part.type === "text" && typeof part.text === "string") parts.push({ type: "text", text: part.text });
    const image = part.image_url as { url?: unknown } | undefined;
    if (part.type === "image_url" && typeof image?.url === "string") {
      parts.push({ type: "image_url", image_url: { url: image.url } });
    }
  }
  return parts;
}

function v1Content(content: Content): V1Content {
  if (typeof content === "string") return content;
  return content.map((part) =>
    part.type === "text"
      ? { type: "text" as const, text: part.text }
      : { type: "image_url" as const, image_url: { url: part.image_url.url } },
  );
}

function textOf(content: Exclude<Content, string>): string {
  return content.map((part) => (part.type === "text" ? part.text : "")).join("");
}
