/**
 * The standard row order: every row once per epoch, each epoch in its own seeded shuffle. Rewards
 * change nothing; the position in the order is the whole state.
 */
import { seededShuffle } from "@vf-rl/core";
import { z } from "zod";
import { mixSeed } from "./policy-client.ts";
import type { RowSampler, RowSamplerOptions, RowsSeen } from "./row-sampler.ts";

/** The epoch and the position in its order. */
export const StandardSamplerState = z.object({
  type: z.literal("standard"),
  epoch: z.number().int().nonnegative(),
  position: z.number().int().nonnegative(),
});
export type StandardSamplerState = z.infer<typeof StandardSamplerState>;

/** Shuffled epochs; see the file comment. */
export class StandardSampler implements RowSampler {
  private readonly count: number;
  private readonly seed: number;
  private readonly envIndex: number;
  private epoch: number;
  private position: number;
  private order: number[];

  constructor(
    options: Omit<RowSamplerOptions, "config" | "state"> & { state?: StandardSamplerState | undefined },
  ) {
    this.count = options.exampleIds.length;
    this.seed = options.seed;
    this.envIndex = options.envIndex;
    this.epoch = options.state?.epoch ?? 0;
    this.position = options.state?.position ?? 0;
    this.order = this.orderOf(this.epoch);
  }

  next(): number {
    if (this.position >= this.count) {
      this.epoch += 1;
      this.position = 0;
      this.order = this.orderOf(this.epoch);
    }
    const row = this.order[this.position]!;
    this.position += 1;
    return row;
  }

  observe(): void {} // the order is fixed in advance

  state(): StandardSamplerState {
    return { type: "standard", epoch: this.epoch, position: this.position };
  }

  seen(): RowsSeen {
    return { rows: this.count, seen: this.epoch > 0 ? this.count : this.position, pools: {}, retired: 0 };
  }

  /** Row indices of one epoch, in their shuffled order. */
  private orderOf(epoch: number): number[] {
    const indices = Array.from({ length: this.count }, (_, i) => i);
    return seededShuffle(indices, mixSeed(this.seed, this.envIndex, epoch));
  }
}
