/**
 * How one environment's next training row is chosen: a `RowSampler` (its `[env.curriculum.sampler]`)
 * draws a row, is told each finished group's mean reward for its row, and keeps its whole state as
 * data, which a checkpoint saves so a resumed run draws what the unbroken run would have.
 */
import { z } from "zod";
import type { RowSamplerConfig } from "../config/curriculum-config.ts";
import { DifficultyPoolSampler, DifficultyPoolState } from "./difficulty-pool-sampler.ts";
import { StandardSampler, StandardSamplerState } from "./standard-sampler.ts";

/** A sampler's state, as progress.json keeps it. */
export const RowSamplerState = z.discriminatedUnion("type", [StandardSamplerState, DifficultyPoolState]);
export type RowSamplerState = z.infer<typeof RowSamplerState>;

/** Where an environment's rows stand, for the step report. */
export interface RowsSeen {
  /** Rows of the environment. */
  rows: number;
  /** Rows drawn at least once (a difficulty pool: rows with a reward, as a pool holds scored rows). */
  seen: number;
  /** Scored rows in each pool, by pool name (none for the standard sampler). */
  pools: Record<string, number>;
  /** Scored rows in pools of weight 0, never drawn again while they stay there. */
  retired: number;
}

/** Chooses an environment's rows; see the file comment. */
export interface RowSampler {
  /** The index (into the environment's rows) of the next row to draw. */
  next(): number;
  /** A finished group's mean reward for the row whose example id is `exampleId`. */
  observe(exampleId: number, meanReward: number): void;
  /** The state to save in a checkpoint. */
  state(): RowSamplerState;
  /** Where the rows stand. */
  seen(): RowsSeen;
}

/** Options of `createRowSampler`. */
export interface RowSamplerOptions {
  /** The environment's id, for messages. */
  envId: string;
  config: RowSamplerConfig;
  /** The example id of each row, in row order: the key a row's reward is kept under. */
  exampleIds: readonly number[];
  /** The run's seed and the environment's index, which seed the sampler's order. */
  seed: number;
  envIndex: number;
  /** The state to continue from (a resumed run); absent: a fresh start. */
  state?: RowSamplerState | undefined;
}

/** The sampler an environment's config names, fresh or continuing from `state`. */
export function createRowSampler(options: RowSamplerOptions): RowSampler {
  const { config, state } = options;
  if (state !== undefined && state.type !== config.type) {
    throw new RangeError(
      `the saved rows of ${options.envId} were drawn by a ${state.type} sampler, not ${config.type}`,
    );
  }
  switch (config.type) {
    case "standard":
      return new StandardSampler({ ...options, state: state as StandardSamplerState | undefined });
    case "difficulty_pool":
      return new DifficultyPoolSampler({
        ...options,
        config,
        state: state as DifficultyPoolState | undefined,
      });
  }
}
