/**
 * An agent rollout's trace as display lines: how the agent ended (stop, exit code, the errors that
 * ended or contained it, tool results the host rewrote), its branches with the one shown marked,
 * the messages of that branch with each reply under the model call that wrote it and the tools
 * offered there (after the messages: an agent CLI's run to hundreds of lines), every model call
 * in order (API, tokens, finish reason, time, failure), and the last output of the program.
 */
import { contentText } from "@vf-rl/core";
import { fitWidth, printable, visibleWidth } from "../../terminal/text-width.ts";
import { messageLines } from "./message-lines.ts";
import { type SavedCall, type SavedTrace, sentMessages } from "./saved-trace.ts";
import type { Push } from "./styled-lines.ts";
import { toolLines } from "./tool-lines.ts";
import type { TraceBranches } from "./trace-branches.ts";

/** The summary above the tools: how it ended, what went wrong, and the branches. */
export function traceSummaryLines(
  trace: SavedTrace,
  found: TraceBranches,
  options: { shown: number; width: number },
  push: Push,
): void {
  const { shown, width } = options;
  const failed = trace.calls.filter((call) => call.error !== null).length;
  const exit = trace.exitCode === null ? "killed or still running" : `exit ${trace.exitCode}`;
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
    const calls = branch.calls.length > 0 ? `calls ${ranges(branch.calls)}` : "no reply";
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

/** Rows of the branch list shown at once. */
const BRANCH_ROWS = 9;

/** The messages of branch `shown`, each reply noted with the call that wrote it. */
export function branchLines(trace: SavedTrace, found: TraceBranches, shown: number, push: Push): void {
  const { branches, main } = found;
  const branch = branches[shown];
  if (!branch) {
    // No call got a reply: what the first one sent, and why each failed.
    push("heading", "── conversation ──");
    if (trace.calls.length === 0) push("dim", "(no message reached the model)");
    for (const [i, call] of trace.calls.entries()) {
      if (i === 0) for (const message of sentMessages(call, 0)) messageLines(message, push);
      push("error", `call ${i + 1} · ${callFacts(call)}: ✗ ${call.error ?? "no reply"}`);
    }
    return;
  }
  const calls = branch.calls.length > 0 ? ` · calls ${ranges(branch.calls)}` : "";
  if (branches.length === 1) push("heading", `── conversation${calls} ──`);
  else {
    const which = `branch ${shown + 1} of ${branches.length}${shown === main ? " · main" : ""}`;
    push("heading", `── ${which}${calls} ──`);
    push("dim", relation(branch.shared, shown === main));
  }
  const callOf = new Map(trace.calls.map((call, i) => [call.node, i]));
  const failedAfter = failedCallsAfter(trace);
  for (const [depth, id] of branch.path.entries()) {
    const node = trace.nodes[id]!;
    const call = callOf.get(id);
    const note = call === undefined ? "" : `call ${call + 1} · ${callFacts(trace.calls[call]!)}`;
    messageLines(node.message, push, note);
    for (const failed of failedAfter.get(id) ?? []) failedCallLines(trace, failed, depth + 1, push);
  }
  const last = branch.calls.at(-1);
  const tools = last === undefined ? [] : trace.calls[last]!.tools;
  const heading = `tools offered${branches.length > 1 ? " on this branch" : ""}`;
  toolLines(tools, push, { heading, firstLineOnly: true });
}

/**
 * Failed calls by the reply node they followed (the last one recorded before them): a failed call
 * has no node of its own, so it is shown where the agent stood when it made it.
 */
function failedCallsAfter(trace: SavedTrace): Map<number, number[]> {
  const after = new Map<number, number[]>();
  let last: number | null = null;
  for (const [i, call] of trace.calls.entries()) {
    if (call.node !== null) last = call.node;
    else if (last !== null) after.set(last, [...(after.get(last) ?? []), i]);
  }
  return after;
}

/** A failed call where it stood: what it sent past the messages above it, and why it failed. */
function failedCallLines(trace: SavedTrace, index: number, depth: number, push: Push): void {
  const call = trace.calls[index]!;
  for (const message of sentMessages(call, depth)) messageLines(message, push, `sent in call ${index + 1}`);
  push("error", `call ${index + 1} · ${callFacts(call)}: ✗ ${call.error ?? "no reply"}`);
}

/** Every model call in the order they started. */
export function callListLines(trace: SavedTrace, found: TraceBranches, push: Push): void {
  if (trace.calls.length === 0) return;
  push("heading", `── model calls (${trace.calls.length}) ──`);
  const branchOf = new Map<number, number>();
  for (const [b, branch] of found.branches.entries()) for (const c of branch.calls) branchOf.set(c, b);
  for (const [i, call] of trace.calls.entries()) {
    const branch = branchOf.get(i);
    const where = found.branches.length > 1 && branch !== undefined ? ` · branch ${branch + 1}` : "";
    push(call.error ? "error" : "body", `${i + 1}. ${call.api} · ${call.model} · ${callFacts(call)}${where}`);
    const extra = [
      call.stream ? "streamed" : "",
      call.tokens ? `token ids: ${call.tokens.completion} sampled` : "",
      Object.keys(call.sampling).length > 0
        ? `sampling ${Object.entries(call.sampling)
            .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
            .join(" ")}`
        : "",
    ].filter(Boolean);
    if (extra.length > 0) push("dim", extra.join(" · "), "   ");
    if (call.error) push("error", `✗ ${call.error}`, "   ");
    for (const dropped of call.dropped) push("dim", `left out: ${dropped}`, "   ");
  }
}

/** What the program printed last. */
export function outputLines(trace: SavedTrace, push: Push): void {
  const output = trace.output.trimEnd();
  if (!output) return;
  push("heading", "── program output (last lines) ──");
  for (const line of output.split("\n")) push("dim", line, "  ");
}

/** Tokens, finish reason and time of one call, e.g. "1480 → 104 tokens · tool_calls · 12 ms". */
function callFacts(call: SavedCall): string {
  const tokens = call.usage ? `${call.usage.promptTokens} → ${call.usage.completionTokens} tokens` : "";
  const ms = call.end - call.start;
  const time = ms < 1000 ? `${Math.max(0, ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
  return [tokens, call.error ? "failed" : (call.finishReason ?? ""), time].filter(Boolean).join(" · ");
}

/** How a branch stands to the main one, in words. */
function relation(shared: number, isMain: boolean): string {
  if (isMain) return "the branch the agent finished on: the row's prompt and completion";
  if (shared === 0) return "a conversation of its own: no message in common with the main branch";
  return `leaves the main branch after its first ${plural(shared, "message")}`;
}

/** 1-based call numbers as ranges: [0, 1, 2, 4] -> "1–3, 5". */
function ranges(indices: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < indices.length; ) {
    let j = i;
    while (j + 1 < indices.length && indices[j + 1] === indices[j]! + 1) j++;
    parts.push(j === i ? `${indices[i]! + 1}` : `${indices[i]! + 1}–${indices[j]! + 1}`);
    i = j + 1;
  }
  return parts.join(", ");
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
