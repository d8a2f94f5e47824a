/**
 * A rollout's whole conversation as display lines, wrapped to the terminal's width in columns: its
 * scores and how it ended, the tools the model was offered (each with its arguments and
 * description), then each message under its role, tool calls with their arguments, tool results
 * under the call they answer. An agent's rollout shows its trace instead of the row's prompt and
 * completion: how the agent ended, one branch of its message graph (`branch`, an index of
 * `traceBranches`) and the tools offered on it, every model call, and the program's last output.
 */
import type { RolloutRecord } from "@vf-rl/core/results";
import { readTrace, traceBranches } from "@vf-rl/core/results";
import { branchLines } from "./branch-lines.ts";
import { callListLines, outputLines } from "./call-list-lines.ts";
import { messageLines } from "./message-lines.ts";
import { fmt, lineWriter, type StyledLine } from "./styled-lines.ts";
import { toolLines } from "./tool-lines.ts";
import { traceSummaryLines } from "./trace-summary-lines.ts";

export { fmt, type StyledLine } from "./styled-lines.ts";

export function conversationLines(record: RolloutRecord, width: number, branch?: number): StyledLine[] {
  const { lines, push } = lineWriter(width);
  push(
    "heading",
    `example ${record.example_id} · rollout ${record.rollout_index} · reward ${fmt(record.reward)}`,
  );
  const metrics = Object.entries(record.metrics).map(([k, v]) => `${k}=${fmt(v)}`);
  if (metrics.length > 0) push("dim", metrics.join("  "));
  push("dim", `stop: ${record.stop_condition ?? "-"}${record.is_truncated ? " · truncated" : ""}`);
  const usage = record.token_usage;
  if (usage) push("dim", `tokens: ${usage.input_tokens} in · ${usage.output_tokens} out`);
  if (record.error) push("error", `error: ${record.error.error}: ${record.error.message}`);
  for (const scoring of record.scoring_errors) {
    push("error", `reward function ${scoring.function} raised: ${scoring.error.message}`);
  }
  if (record.answer) push("dim", `answer: ${record.answer}`);
  lines.push({ style: "body", text: "" });
  const read = readTrace(record);
  const found = read.type === "trace" ? traceBranches(read.trace) : null;
  const shown = branch ?? found?.main ?? 0;
  if (read.type === "unreadable") push("error", `the agent's trace cannot be read: ${read.message}`);
  if (read.type === "trace" && found) {
    traceSummaryLines(read.trace, found, { shown, width }, push);
    branchLines(read.trace, found, shown, push);
    callListLines(read.trace, found, push);
    outputLines(read.trace, push);
    return lines;
  }
  toolLines(record.tool_defs ?? [], push, { heading: "tools offered", firstLineOnly: false });
  push("heading", "── prompt ──");
  for (const message of record.prompt) messageLines(message, push);
  push("heading", "── completion ──");
  if (record.completion.length === 0) push("dim", "(empty)");
  for (const message of record.completion) messageLines(message, push);
  return lines;
}
