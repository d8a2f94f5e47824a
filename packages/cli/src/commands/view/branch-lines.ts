/**
 * One branch of an agent's trace as display lines: its messages from the root, each reply under the
 * model call that wrote it, a failed call where the agent made it, then the tools offered there
 * (after the messages: an agent CLI's run to hundreds of lines).
 */

import type { TraceBranches } from "@vf-rl/core/results";
import { type SavedTrace, sentMessages } from "@vf-rl/core/results";
import { callFacts, callRanges, plural } from "./call-words.ts";
import { messageLines } from "./message-lines.ts";
import type { Push } from "./styled-lines.ts";
import { toolLines } from "./tool-lines.ts";

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
  const calls = branch.calls.length > 0 ? ` · calls ${callRanges(branch.calls)}` : "";
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

/** How a branch stands to the main one, in words. */
function relation(shared: number, isMain: boolean): string {
  if (isMain) return "the branch the agent finished on: the row's prompt and completion";
  if (shared === 0) return "a conversation of its own: no message in common with the main branch";
  return `leaves the main branch after its first ${plural(shared, "message")}`;
}
