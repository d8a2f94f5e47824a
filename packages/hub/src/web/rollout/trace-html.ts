/**
 * An agent rollout's trace as HTML: how it ended (stop, exit code, errors, the agent's output), its
 * model calls as a table, and its branches (core/results' `traceBranches`: one per leaf of the
 * message graph), each a `<details>` holding its conversation, the main branch open. A branch that
 * shares its start with the main one keeps the shared messages folded.
 */
import type { Message } from "@vf-rl/core";
import { type SavedCall, type SavedTrace, traceBranches } from "@vf-rl/core/results";
import { html, type SafeHtml } from "../html.ts";
import { conversationHtml } from "./message-html.ts";
import { toolsHtml } from "./tools-html.ts";

export function traceHtml(trace: SavedTrace): SafeHtml {
  const { branches, main } = traceBranches(trace);
  const edits = new Map(trace.toolResults.map((edit) => [edit.toolCallId, edit]));
  const branchOf = new Map<number, number[]>();
  branches.forEach((branch, b) => {
    for (const call of branch.calls) branchOf.set(call, [...(branchOf.get(call) ?? []), b + 1]);
  });
  const exit = trace.exitCode === null ? "killed (no exit code)" : `exit code ${trace.exitCode}`;
  const sections = branches.map((branch, b) => {
    const messages = branch.path.map((id) => trace.nodes[id]!.message);
    const shared = b === main ? 0 : branch.shared;
    const head = messages.slice(0, shared);
    const rest = messages.slice(shared);
    return html`<details class="branch" id="branch-${b + 1}"${b === main ? html` open` : ""}>
<summary><strong>Branch ${b + 1}</strong>${b === main ? " (main)" : ""} · ${plural(messages.length, "message")} · ${plural(branch.calls.length, "call")}${shared ? ` · shares its first ${plural(shared, "message")} with the main branch` : ""}</summary>
${head.length ? html`<details class="shared"><summary class="small muted">${plural(shared, "message")} shared with the main branch</summary>${conversationHtml(head, { edits })}</details>` : ""}${conversationHtml(rest, { edits, before: head as Message[] })}</details>`;
  });
  return html`<section class="trace"><h3>Agent trace</h3>
<p class="small">${plural(trace.calls.length, "model call")} · ${plural(branches.length, "branch", "branches")} · stop <code>${trace.stop}</code> · ${exit}</p>
${trace.output ? html`<details><summary class="small muted">the agent's output</summary><pre>${trace.output}</pre></details>` : ""}
${toolsHtml(trace.calls[0]?.tools ?? [])}
<table class="calls"><thead><tr><th>call</th><th>model</th><th>tokens</th><th>finish</th><th>time</th><th>branch</th><th>error</th></tr></thead><tbody>
${trace.calls.map((call, i) => callRow(call, i, branchOf.get(i) ?? []))}</tbody></table>
<div class="branches">${sections}</div></section>`;
}

function callRow(call: SavedCall, index: number, branches: number[]): SafeHtml {
  const tokens = call.usage ? `${call.usage.promptTokens} → ${call.usage.completionTokens}` : "—";
  const ms = Math.max(0, call.end - call.start);
  return html`<tr class="${call.error ? "failed" : ""}"><td>${index + 1}</td><td><code>${call.model}</code></td><td>${tokens}</td><td>${call.finishReason ?? "—"}</td><td class="nowrap">${ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`}</td><td>${branches.join(", ") || "—"}</td><td>${call.error ?? ""}</td></tr>`;
}

function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}
