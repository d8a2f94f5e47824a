/**
 * The top of an agent rollout: how the agent ended (stop, exit code, the errors that ended or
 * contained it, tool results the host rewrote or withheld) and, when its calls made more than one,
 * the list of its branches with the one shown marked, each in one row with what tells it apart.
 */
import { contentText } from "@vf-rl/core";
import type { SavedTrace, TraceBranches } from "@vf-rl/core/results";
import { fitWidth, printable, visibleWidth } from "../../terminal/text-width.ts";
import { callRanges, plural } from "./call-words.ts";
import type { Push } from "./styled-lines.ts";

/** The summary above the tools: how it ended, what went wrong, and the branches. */
export function traceSummaryLines(
  trace: SavedTrace,
  found: TraceBranches,
  options: { shown: number; width: number },
  push: Push,
): void {
  const { shown, width } = options;
  const failed = trace.calls.filter((call) => call.error !== null).length;
  // A saved row is written once its rollout ended: no exit code means the program was killed.
  const exit = trace.exitCode === null ? "killed" : `exit ${trace.exitCode}`;
  push(
    "heading",
    `── agent: ${trace.stop} · ${exit} · ${plural(trace.calls.length, "model call")}${failed ? ` (${failed} failed)` : ""} ──`,
  );
  for (const error of trace.errors) push("error", `✗ ${error.type}: ${error.message}`);
  for (const edit of trace.toolResults) {
    const tool = edit.toolName ? ` (${edit.toolName})` : "";
    const reason = edit.reason ? `: ${edit.reason}` : "";
    const done = edit.type === "deny" ? "withheld" : "rewritten";
    push("tool", `tool result ${edit.toolCallId}${tool} ${done} from call ${edit.callIndex + 1}${reason}`);
    // What the agent had sent, which the model never saw: the first lines, to audit the hook.
    const original = contentText(edit.original).trimEnd().split("\n");
    const kept = original.slice(0, ORIGINAL_LINES).join("\n");
    const more =
      original.length > ORIGINAL_LINES ? ` (… ${original.length - ORIGINAL_LINES} more lines)` : "";
    if (kept) push("dim", `the agent sent: ${kept}${more}`, "  ");
  }
  const { branches, main } = found;
  if (branches.length < 2) return;
  push("dim", `${branches.length} branches ([ and ] switch):`);
  // A window of the list around the branch shown: agents may start dozens.
  const start = Math.max(0, Math.min(shown - 4, branches.length - BRANCH_ROWS));
  const end = Math.min(branches.length, start + BRANCH_ROWS);
  if (start > 0) push("dim", `… ${start} more`, "    ");
  for (let i = start; i < end; i++) {
    const branch = branches[i]!;
    const calls = branch.calls.length > 0 ? `calls ${callRanges(branch.calls)}` : "no reply";
    const text = `${i === shown ? "›" : " "} ${i + 1}  ${i === main ? "main · " : ""}${calls} · ${plural(branch.path.length, "message")}`;
    // The preview takes what the row leaves of the width, so each branch stays one row.
    const room = width - 2 - visibleWidth(text) - 3;
    push(i === shown ? "body" : "dim", `${text}${preview(trace, branch.path, branch.shared, room)}`, "  ");
  }
  if (end < branches.length) push("dim", `… ${branches.length - end} more`, "    ");
}

/**
 * What tells a branch apart, in a few words: its first message the main branch does not have (a
 * subagent's system prompt, a retried call's other answer), or the main branch's first message.
 */
function preview(trace: SavedTrace, path: number[], shared: number, room: number): string {
  const id = path[shared < path.length ? shared : 0];
  const message = id === undefined ? undefined : trace.nodes[id]?.message;
  if (!message) return "";
  const calls = message.role === "assistant" ? (message.tool_calls ?? []) : [];
  const text =
    contentText(message.content).trim() || calls.map((call) => `→ ${call.function.name}`).join(" ");
  const line = `${message.role}: ${printable(text.split("\n")[0]!.trim())}`;
  return room < 12 ? "" : ` · ${fitWidth(line, room)}`;
}

/** Lines of a rewritten or withheld tool result's original shown. */
const ORIGINAL_LINES = 3;

/** Rows of the branch list shown at once. */
const BRANCH_ROWS = 9;
