/**
 * The lineage of a forked run (`vf train CONFIG --fork OTHER_RUN`): which run's checkpoint it
 * started from, and that run's own lineage, so a chain of forks reads back to the first run. It is
 * saved in every checkpoint's progress.json, so it survives checkpoints and resumes, and a fork of
 * a fork copies it from the checkpoint it starts from.
 */
import { z } from "zod";

/** One run a fork descends from. */
export const ForkPoint = z.object({
  /** The parent's run folder (absolute). */
  run_dir: z.string(),
  /** The parent's step the fork started from. */
  step: z.number().int().nonnegative(),
  /** The checkpoint folder the fork started from (absolute). */
  checkpoint: z.string(),
});
export type ForkPoint = z.infer<typeof ForkPoint>;

/** A run's ancestors: its parent first, then the parent's parent, and so on; empty for a run never forked. */
export const RunLineage = z.array(ForkPoint);
export type RunLineage = z.infer<typeof RunLineage>;

/** The lineage as one line: "forked from RUN_B at step 4, which was forked from RUN_A at step 2". */
export function describeLineage(lineage: RunLineage): string {
  return lineage
    .map((p, i) => `${i === 0 ? "forked from" : "which was forked from"} ${p.run_dir} at step ${p.step}`)
    .join(", ");
}
