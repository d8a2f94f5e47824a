/**
 * The off-policy schedule of a run: which policy samples which batch, and so which policies the
 * run must keep. Policy v is the weights after v optimizer steps; batch b is the batch step b
 * (0-based) trains on; A is max_async_level.
 *
 * Batch b is sampled with policy max(0, b − A): the batch of step k+A is sampled while the trainer
 * works on step k, never more than A steps behind. Which policy samples which batch is fixed by b
 * alone, never by timing, so every run of a config (and every resumed run) samples the same
 * tokens. This file is the one place that rule is written; the sampler side, the trainer side and
 * checkpoints ask it.
 */

/** The schedule of a run with `maxAsyncLevel` (A). */
export class OffPolicySchedule {
  constructor(readonly maxAsyncLevel: number) {
    if (!Number.isInteger(maxAsyncLevel) || maxAsyncLevel < 0) {
      throw new RangeError(`max_async_level must be a whole number ≥ 0, not ${maxAsyncLevel}`);
    }
  }

  /** The policy that samples batch `batch`: max(0, batch − A). */
  policyOf(batch: number): number {
    return Math.max(0, batch - this.maxAsyncLevel);
  }

  /**
   * The policies a checkpoint after `steps` steps must hold besides the trainer's own weights: those
   * that sample the batches still due (steps .. steps + A − 1) and are older than `steps`, in
   * increasing order. A resumed run samples those batches again from these very weights.
   */
  checkpointPolicies(steps: number): number[] {
    const policies = new Set<number>();
    for (let b = steps; b < steps + this.maxAsyncLevel; b++) {
      const policy = this.policyOf(b);
      if (policy < steps) policies.add(policy);
    }
    return [...policies].sort((a, b) => a - b);
  }

  /**
   * The oldest policy the run can still load after `steps` steps: the one of batch `steps`, the
   * oldest batch not trained yet (every later batch has a newer or the same policy). Older weights
   * are never loaded again: checkpoints hold their own links to the ones they keep.
   */
  oldestNeeded(steps: number): number {
    return this.policyOf(steps);
  }
}
