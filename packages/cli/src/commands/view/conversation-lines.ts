/**
 * A rollout's whole conversation as display lines, wrapped to the terminal's width in columns (control
 * characters a model wrote shown as "�", never sent to the terminal): the tools the model was
 * offered (each with its arguments and description), then each message under its role, tool calls
 * with their arguments, tool results under the call they answer.
 */
import { contentText, type Message } from "@vf-rl/core";
import type { RolloutRecord } from "@vf-rl/core/results";
import { printable, wrapToWidth } from "../../terminal/text-width.ts";
import { toolSignature } from "../../terminal/tool-signature.ts";

export interface StyledLine {
  text: string;
  /** How the renderer should show the line. */
  style: "heading" | "role" | "body" | "tool" | "dim" | "error";
}

export function conversationLines(record: RolloutRecord, width: number): StyledLine[] {
  const lines: StyledLine[] = [];
  const push = (style: StyledLine["style"], text: string, indent = "") => {
    for (const line of wrapToWidth(printable(text), Math.max(20, width - indent.length)))
      lines.push({ style, text: indent + line });
  };
  push(
    "heading",
    `example ${record.example_id} · rollout ${record.rollout_index} · reward ${fmt(record.reward)}`,
  );
  const metrics = Object.entries(record.metrics).map(([k, v]) => `${k}=${fmt(v)}`);
  if (metrics.length > 0) push("dim", metrics.join("  "));
  push("dim", `stop: ${record.stop_condition ?? "-"}${record.is_truncated ? " · truncated" : ""}`);
  if (record.error) push("error", `error: ${record.error.error}: ${record.error.message}`);
  for (const scoring of record.scoring_errors) {
    push("error", `reward function ${scoring.function} raised: ${scoring.error.message}`);
  }
  if (record.answer) push("dim", `answer: ${record.answer}`);
  lines.push({ style: "body", text: "" });
  const tools = record.tool_defs ?? [];
  if (tools.length > 0) {
    push("heading", `── tools offered (${tools.length}) ──`);
    for (const tool of tools) {
      push("tool", toolSignature(tool), "  ");
      if (tool.function.description) push("dim", tool.function.description, "      ");
    }
  }
  push("heading", "── prompt ──");
  for (const message of record.prompt) messageLines(message, push);
  push("heading", "── completion ──");
  if (record.completion.length === 0) push("dim", "(empty)");
  for (const message of record.completion) messageLines(message, push);
  return lines;
}

type Push = (style: StyledLine["style"], text: string, indent?: string) => void;

function messageLines(message: Message, push: Push): void {
  if (message.role === "tool") {
    push("role", `tool result (${message.tool_call_id}):`);
    push("tool", contentText(message.content) || "(empty)", "  ");
    return;
  }
  push("role", `${message.role}:`);
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

export function fmt(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(3);
}
