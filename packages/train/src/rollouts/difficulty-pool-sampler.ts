/**
 * prime-rl's difficulty pool: rows are drawn with replacement, each weighted by the pool its latest
 * group mean reward falls in, so rows in the middle come back often, solved rows rarely or never
 * (a pool of weight 0 retires them) and rows the model cannot do yet wait in a light pool. A row not
 * yet scored weighs 1, so every row gets its first look early. The generator and each row's latest
 * reward are the state.
 */
import { UserError } from "@vf-rl/core";
import { Rng } from "@vf-rl/engine";
import { z } from "zod";
import type { DifficultyPool, DifficultyPoolSamplerConfig } from "../config/curriculum-config.ts";
import { mixSeed } from "./policy-client.ts";
import type { RowSampler, RowSamplerOptions, RowsSeen } from "./row-sampler.ts";
import { RngState, trainRng } from "./train-rng.ts";

/** The generator, and the latest group mean reward of each scored row by example id. */
export const DifficultyPoolState = z.object({
  type: z.literal("difficulty_pool"),
  rng: RngState,
  rewards: z.record(z.string(), z.number()),
});
export type DifficultyPoolState = z.infer<typeof DifficultyPoolState>;

/** Rows weighted by their pool; see the file comment. */
export class DifficultyPoolSampler implements RowSampler {
  private readonly envId: string;
  private readonly exampleIds: readonly number[];
  /** Pools by increasing threshold: a row belongs to the first one at or above its reward. */
  private readonly pools: [string, DifficultyPool][];
  private readonly rng: Rng;
  private readonly rewards: Map<number, number>;

  constructor(
    options: Omit<RowSamplerOptions, "config" | "state"> & {
      config: DifficultyPoolSamplerConfig;
      state?: DifficultyPoolState | undefined;
    },
  ) {
    this.envId = options.envId;
    this.exampleIds = options.exampleIds;
    if (new Set(this.exampleIds).size !== this.exampleIds.length) {
      throw new UserError(
        `${this.envId} gives several training rows one example id, and a difficulty pool keeps each row's reward under its id: give each row its own id, or use the standard sampler`,
      );
    }
    this.pools = Object.entries(options.config.pools).sort((a, b) => a[1].threshold - b[1].threshold);
    const { state } = options;
    this.rng = state ? Rng.fromState(state.rng) : trainRng(mixSeed(options.seed, 0x9001, options.envIndex));
    this.rewards = new Map(Object.entries(state?.rewards ?? {}).map(([id, r]) => [Number(id), r]));
  }

  next(): number {
    const weights = this.exampleIds.map((id) => this.weightOf(id));
    const total = weights.reduce((a, b) => a + b, 0);
    if (total === 0) {
      const retired = this.pools.filter(([, pool]) => pool.weight === 0).map(([name]) => name);
      throw new UserError(
        `every training row of ${this.envId} is retired (its latest reward puts it in pool ${retired.join(" or ")}, of weight 0): give those pools a weight above 0 in [env.curriculum.sampler.pools], or train fewer steps`,
      );
    }
    let pick = this.rng.nextFloat() * total;
    for (const [row, weight] of weights.entries()) {
      if (pick < weight) return row;
      pick -= weight;
    }
    return weights.findLastIndex((w) => w > 0); // rounding left a sliver past the last weight
  }

  observe(exampleId: number, meanReward: number): void {
    this.rewards.set(exampleId, meanReward);
  }

  state(): DifficultyPoolState {
    return {
      type: "difficulty_pool",
      rng: this.rng.state(),
      rewards: Object.fromEntries([...this.rewards].map(([id, r]) => [String(id), r])),
    };
  }

  seen(): RowsSeen {
    const pools: Record<string, number> = Object.fromEntries(this.pools.map(([name]) => [name, 0]));
    let retired = 0;
    for (const reward of this.rewards.values()) {
      const [name, pool] = this.poolOf(reward);
      pools[name] = (pools[name] ?? 0) + 1;
      if (pool.weight === 0) retired += 1;
    }
    return { rows: this.exampleIds.length, seen: this.rewards.size, pools, retired };
  }

  private weightOf(exampleId: number): number {
    const reward = this.rewards.get(exampleId);
    return reward === undefined ? 1 : this.poolOf(reward)[1].weight;
  }

  /** The first pool at or above `reward`; above them all, the highest. */
  private poolOf(reward: number): [string, DifficultyPool] {
    return this.pools.find(([, pool]) => reward <= pool.threshold) ?? this.pools.at(-1)!;
  }
}
