/**
 * When collecting a batch gives up: after `maxBatches` batches' worth of groups drawn in a row
 * without one kept (prime-rl's guard counts the same unit: batch-equivalents with nothing admitted).
 * Counting rounds instead gave up far too soon near the end of a batch, where each round draws only
 * the one or two groups still missing: a policy that solves 80% of its prompts (so 80% of its groups
 * score all 1 and teach nothing) loses ten single-group rounds in a row one batch in ten, and a run
 * of tool-arithmetic that was learning well stopped at step 96 of 120.
 */
export class BarrenGuard {
  private drawnSinceKept = 0;

  /** `groupsPerBatch` groups make a batch; give up after `maxBatches` of them keep nothing. */
  constructor(
    private readonly groupsPerBatch: number,
    private readonly maxBatches: number,
  ) {}

  /** Records a round: `drawn` groups, `kept` of them kept. */
  record(drawn: number, kept: number): void {
    this.drawnSinceKept = kept > 0 ? 0 : this.drawnSinceKept + drawn;
  }

  /** Groups drawn since the last one kept. */
  get barrenDraws(): number {
    return this.drawnSinceKept;
  }

  /** Whether to give up. */
  get exhausted(): boolean {
    return this.drawnSinceKept >= this.maxBatches * this.groupsPerBatch;
  }
}
