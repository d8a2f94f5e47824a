/**
 * What the rollout filters did in a step (algorithm/rollout-filters.ts), as the step's row holds it
 * (`rollout_filters` in metrics.jsonl) and as its console line says it.
 */
import { z } from "zod";
import type { RolloutFilterCounts } from "../algorithm/rollout-filters.ts";

/** One detector's count over the batch's kept groups. */
const DetectorCounts = z.object({
  /** Rollouts it flagged. */
  detected: z.number().int(),
  /** Rollouts it left out of training (with enforce; a rollout two enforcing detectors flag counts for the first listed). */
  dropped: z.number().int(),
});

/** The `rollout_filters` of a train row. */
export const RolloutFiltersRow = z.object({
  /** Rollouts left out for a zero advantage (filter_zero_advantages). */
  zero_advantage: z.number().int(),
  /** Each [[filters]] detector of the config, by type. */
  gibberish: DetectorCounts.optional(),
  repetition: DetectorCounts.optional(),
});
export type RolloutFiltersRow = z.infer<typeof RolloutFiltersRow>;

/** The row's form of a batch's counts. */
export function rolloutFiltersRow(counts: RolloutFilterCounts): RolloutFiltersRow {
  return { zero_advantage: counts.zeroAdvantage, ...counts.detectors };
}

/**
 * The console's part, e.g. `filters: gibberish 3 flagged (1 dropped), repetition 0 flagged,
 * zero-advantage 2 dropped`; empty when no detector is configured and nothing was left out.
 */
export function formatRolloutFilters(row: RolloutFiltersRow): string {
  const parts: string[] = [];
  for (const type of ["gibberish", "repetition"] as const) {
    const c = row[type];
    if (c) parts.push(`${type} ${c.detected} flagged${c.dropped > 0 ? ` (${c.dropped} dropped)` : ""}`);
  }
  if (row.zero_advantage > 0) parts.push(`zero-advantage ${row.zero_advantage} dropped`);
  return parts.length > 0 ? `filters: ${parts.join(", ")}` : "";
}
