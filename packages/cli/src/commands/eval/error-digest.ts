/**
 * Errors of a run grouped for the summary: one group per kind (a rollout's error class, or a reward
 * function and the class it raised), with how often it happened and its distinct messages, so a
 * hundred identical failures read as one line with its cause instead of a bare count.
 */
import type { RolloutRecord } from "@vf-rl/core/results";

/** One kind of error and what it said. */
export interface ErrorGroup {
  /** e.g. "ModelHttpError", or "exact_match: TypeError" for a reward function. */
  kind: string;
  count: number;
  /** Distinct messages in the order they were first seen, each with how often it was. */
  messages: Array<{ text: string; count: number }>;
}

/** Rollouts that ended with an error, grouped by error class. */
export function rolloutErrorGroups(records: readonly RolloutRecord[]): ErrorGroup[] {
  return group(records.flatMap((r) => (r.error ? [{ kind: r.error.error, text: r.error.message }] : [])));
}

/** Reward and metric functions that raised (they scored 0), grouped by function and error class. */
export function scoringErrorGroups(records: readonly RolloutRecord[]): ErrorGroup[] {
  return group(
    records.flatMap((r) =>
      r.scoring_errors.map((s) => ({ kind: `${s.function}: ${s.error.error}`, text: s.error.message })),
    ),
  );
}

function group(items: Array<{ kind: string; text: string }>): ErrorGroup[] {
  const groups = new Map<string, { count: number; messages: Map<string, number> }>();
  for (const { kind, text } of items) {
    const entry = groups.get(kind) ?? { count: 0, messages: new Map<string, number>() };
    entry.count++;
    entry.messages.set(text, (entry.messages.get(text) ?? 0) + 1);
    groups.set(kind, entry);
  }
  return [...groups].map(([kind, { count, messages }]) => ({
    kind,
    count,
    messages: [...messages].map(([text, n]) => ({ text, count: n })),
  }));
}
