/** Which rollouts of a run are already saved, so a resumed run does only the rest. */
import type { RolloutRecord } from "./rollout-record.ts";

/** Example id → the rollout indices saved for it. */
export type CompletedRollouts = Map<number, Set<number>>;

/** The saved (example_id, rollout_index) pairs of some records. */
export function completedRollouts(records: readonly RolloutRecord[]): CompletedRollouts {
  const completed: CompletedRollouts = new Map();
  for (const record of records) {
    const indices = completed.get(record.example_id);
    if (indices) indices.add(record.rollout_index);
    else completed.set(record.example_id, new Set([record.rollout_index]));
  }
  return completed;
}

/** Example ids whose group is whole: every rollout index 0..r-1 is saved. */
export function completedGroups(records: readonly RolloutRecord[], rolloutsPerExample: number): Set<number> {
  const groups = new Set<number>();
  for (const [exampleId, indices] of completedRollouts(records)) {
    let whole = true;
    for (let i = 0; i < rolloutsPerExample && whole; i++) whole = indices.has(i);
    if (whole) groups.add(exampleId);
  }
  return groups;
}
