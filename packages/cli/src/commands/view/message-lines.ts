/**
 * One chat message as display lines: its role (with a note, such as the model call that wrote it),
 * reasoning, text, the tool calls an assistant made with their arguments, and a tool result under
 * the call id it answers.
 */
import { contentText, type Message } from "@vf-rl/core";
import type { Push } from "./styled-lines.ts";

export function messageLines(message: Message, push: Push, note = ""): void {
  const suffix = note ? ` · ${note}` : "";
  if (message.role === "tool") {
    push("role", `tool result (${message.tool_call_id})${suffix}:`);
    push("tool", contentText(message.content) || "(empty)", "  ");
    return;
  }
  push("role", `${message.role}${suffix}:`);
  if (message.role === "assistant" && message.reasoning_content) {
    push("dim", `(reasoning) ${message.reasoning_content}`, "  ");
  }
  const text = contentText(message.content);
  if (text) push("body", text, "  ");
  if (message.role === "assistant") {
    for (const call of message.tool_calls ?? []) {
      push("tool", `→ ${call.function.name} [${call.id}]`, "  ");
      for (const [name, value] of callArguments(call.function.arguments))
        push("tool", `${name}: ${value}`, "      ");
    }
  }
  if (typeof message.content !== "string" && Array.isArray(message.content)) {
    const images = message.content.filter((part) => part.type === "image_url").length;
    if (images > 0) push("dim", `(${images} image${images > 1 ? "s" : ""})`, "  ");
  }
}

/** A call's arguments as name/value pairs, strings shown as written; unparsable JSON as one raw entry. */
function callArguments(json: string): Array<[string, string]> {
  try {
    const parsed: unknown = JSON.parse(json);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
      return Object.entries(parsed).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]);
    }
  } catch {
    // Models do send broken JSON; show it as it came.
  }
  return [["arguments", json]];
}
