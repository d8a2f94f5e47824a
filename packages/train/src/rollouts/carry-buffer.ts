/**
 * The groups a batch did not need, kept for the next one. A round of sampling that yields more
 * groups worth training on than its batch needs (oversampling_factor above 1) leaves the rest here,
 * and the next batch takes them first, oldest first, before drawing new prompts: prime-rl's finished
 * groups likewise wait in its queue for the next batch rather than being thrown away. A carried
 * group grows one step staler for every batch it waits; loop/staleness.ts drops those past
 * max_off_policy_steps.
 *
 * The buffer is part of a run's state: a checkpoint saves its groups (`CarriedGroup`, everything a
 * batch trains on and reports) and a resume puts them back, so a resumed run trains the groups the
 * unbroken run trains.
 */
import { RolloutRecord } from "@vf-rl/core/results";
import { BatchItem } from "@vf-rl/engine";
import { z } from "zod";
import type { TrainGroup } from "./collect-batch.ts";

/** A carried group as a checkpoint holds it: a `TrainGroup`. */
export const CarriedGroup = z.object({
  /** Which [[env]] it came from. */
  envIndex: z.number().int().nonnegative(),
  records_G: z.array(RolloutRecord),
  /** Computed when it was sampled, against its own group's rewards. */
  advantages_G: z.array(z.number()),
  items_G_D: z.array(z.array(BatchItem)),
  /** The oldest policy version of each rollout's turns. */
  versions_G: z.array(z.number().int()),
});
export type CarriedGroup = z.infer<typeof CarriedGroup>;

/** Groups waiting for a later batch, oldest first. */
export class CarryBuffer {
  private groups: TrainGroup[];

  /** Starts empty, or with the groups a checkpoint saved. */
  constructor(saved: readonly CarriedGroup[] = []) {
    this.groups = [...saved];
  }

  /** Groups waiting. */
  get size(): number {
    return this.groups.length;
  }

  /** Keeps a group for a later batch, behind those already waiting. */
  put(group: TrainGroup): void {
    this.groups.push(group);
  }

  /** Takes up to `n` groups, oldest first. */
  take(n: number): TrainGroup[] {
    return this.groups.splice(0, Math.max(0, n));
  }

  /** Removes and returns the groups `drop` picks, keeping the others in order. */
  dropWhere(drop: (group: TrainGroup) => boolean): TrainGroup[] {
    const dropped = this.groups.filter(drop);
    this.groups = this.groups.filter((group) => !drop(group));
    return dropped;
  }

  /** The groups waiting now, for a checkpoint (a copy: later puts and takes leave it as it is). */
  state(): CarriedGroup[] {
    return [...this.groups];
  }
}
