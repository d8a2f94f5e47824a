/**
 * How the model is told about tools: a section of its system turn that lists each function as one
 * line of JSON and says how to call one,
 *
 *   # Tools
 *
 *   You can call these functions. Each is described by one line of JSON:
 *   {"name":"add","description":"Adds two numbers.","parameters":{...}}
 *
 *   To call one, write <tool_call>{"name": "NAME", "arguments": {...}}</tool_call> (one block per
 *   call) and end your turn; the results come back as tool messages, in the order of the calls.
 *
 * The section follows the conversation's own system message (after a blank line) when the first
 * message is one, else it is a system message of its own at the start. The server renders a
 * request's tools this way, and supervised training must render them the same way, or the model is
 * trained on prompts it never sees.
 */
import { z } from "zod";
import type { ChatMessageInput } from "./chat-template.ts";

/** A function tool offered to the model, in the OpenAI shape. */
export const ChatTool = z.object({
  type: z.literal("function"),
  function: z.object({
    name: z.string().min(1),
    description: z.string().nullish(),
    parameters: z.record(z.string(), z.unknown()).nullish(),
    strict: z.boolean().nullish(),
  }),
});
export type ChatTool = z.infer<typeof ChatTool>;

/** The system-turn section that describes `tools` to the model. */
export function toolsSection(tools: readonly ChatTool[]): string {
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

/** `messages` as the model reads them when it is offered `tools`: the section in the system turn. */
export function withToolsSection(
  messages: readonly ChatMessageInput[],
  tools: readonly ChatTool[],
): ChatMessageInput[] {
  if (tools.length === 0) return [...messages];
  const section = toolsSection(tools);
  const [first, ...rest] = messages;
  if (first?.role !== "system") return [{ role: "system", content: section }, ...messages];
  const text = typeof first.content === "string" ? first.content : "";
  return [{ ...first, content: text === "" ? section : `${text}\n\n${section}` }, ...rest];
}
