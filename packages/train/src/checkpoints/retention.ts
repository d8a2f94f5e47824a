/**
 * Which checkpoints a run keeps, as prime-rl keeps them: the newest `keep_last`, and for good every
 * step that is a multiple of `keep_interval` (milestones to come back to, `--resume-step` or
 * `--fork`). Pruning runs only right after a checkpoint is written, so the newest one (the step a
 * resumed run started from, until a newer one exists) is always among those kept.
 */

/** The retention keys of [checkpoints]. */
export interface Retention {
  /** Newest checkpoints kept. */
  keep_last: number;
  /** Checkpoints at every multiple of this many steps are never deleted; absent: none. */
  keep_interval?: number | undefined;
}

/** The steps among `steps` to keep, in increasing order. */
export function keptSteps(steps: readonly number[], retention: Retention): number[] {
  const sorted = [...steps].sort((a, b) => a - b);
  const kept = new Set(sorted.slice(Math.max(0, sorted.length - retention.keep_last)));
  const every = retention.keep_interval;
  if (every !== undefined) for (const step of sorted) if (step % every === 0) kept.add(step);
  return sorted.filter((step) => kept.has(step));
}
