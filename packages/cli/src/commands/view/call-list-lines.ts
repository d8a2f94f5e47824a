/**
 * The end of an agent rollout: every model call in the order they started (API, model, tokens,
 * finish reason, time, branch, token ids, sampling, failure, what the dialect left out), and the
 * last output of the program.
 */

import type { SavedTrace, TraceBranches } from "@vf-rl/core/results";
import { callFacts } from "./call-words.ts";
import type { Push } from "./styled-lines.ts";

/** Every model call in the order they started. */
export function callListLines(trace: SavedTrace, found: TraceBranches, push: Push): void {
  if (trace.calls.length === 0) return;
  push("heading", `── model calls (${trace.calls.length}) ──`);
  // A reply that later branches carry on from is on each of them.
  const branchesOf = new Map<number, number[]>();
  for (const [b, branch] of found.branches.entries())
    for (const c of branch.calls) branchesOf.set(c, [...(branchesOf.get(c) ?? []), b + 1]);
  for (const [i, call] of trace.calls.entries()) {
    const on = branchesOf.get(i) ?? [];
    const where =
      found.branches.length < 2 || on.length === 0
        ? ""
        : ` · branch${on.length > 1 ? "es" : ""} ${on.join(", ")}`;
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
