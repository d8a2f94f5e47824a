/**
 * One rollout as a row of the rollouts screen: its example and rollout, reward, stop condition,
 * then what went wrong (the row's error, else the first error of an agent's trace, such as the
 * limit that ended it), an agent's model calls and branches, and the first metrics. What matters
 * most comes first, as a long row is cut at the screen's edge.
 */
import type { RolloutRecord } from "@vf-rl/core/results";
import { readTrace, traceBranches } from "@vf-rl/core/results";
import { padToWidth } from "../../terminal/text-width.ts";
import { fmt } from "./styled-lines.ts";

export function rolloutRow(record: RolloutRecord): string {
  const read = readTrace(record);
  const trace = read.type === "trace" ? read.trace : null;
  const failure =
    record.error?.error ?? trace?.errors[0]?.type ?? (read.type === "unreadable" ? "trace unreadable" : null);
  const error = failure ? `✗ ${failure} ` : "";
  let agent = "";
  if (trace) {
    const branches = traceBranches(trace).branches.length;
    const calls = `${trace.calls.length} call${trace.calls.length === 1 ? "" : "s"}`;
    agent = `${calls}${branches > 1 ? ` · ${branches} branches` : ""}  `;
  }
  const metrics = Object.entries(record.metrics)
    .slice(0, 4)
    .map(([k, v]) => `${k}=${fmt(v)}`)
    .join(" ");
  const stop = padToWidth(record.stop_condition ?? "-", 24);
  return `#${record.example_id}.${record.rollout_index}  reward ${fmt(record.reward).padEnd(6)} ${stop} ${error}${agent}${metrics}`;
}
