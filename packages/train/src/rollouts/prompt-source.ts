/**
 * The order in which prompts are drawn for training: a mixture of the environments' training rows,
 * each environment chosen with probability proportional to its weight (its [[env]] ratio, else its
 * row count), and within one environment the row its curriculum's sampler picks (row-sampler.ts:
 * by default every row once per epoch in a seeded shuffled order). The generator's state and each
 * sampler's are data (`PromptSourceState`), saved in every checkpoint, so a resumed run draws the
 * same prompts as an unbroken one.
 */
import type { RolloutInput } from "@vf-rl/core";
import { Rng } from "@vf-rl/engine";
import { z } from "zod";
import type { RowSamplerConfig } from "../config/curriculum-config.ts";
import { mixSeed } from "./policy-client.ts";
import { createRowSampler, type RowSampler, RowSamplerState, type RowsSeen } from "./row-sampler.ts";
import { RngState, trainRng } from "./train-rng.ts";

/** Where the source stands: the generator that picks environments, and each one's row sampler. */
export const PromptSourceState = z.preprocess(
  fromCursors,
  z.object({ rng: RngState, rows: z.array(RowSamplerState) }),
);
export type PromptSourceState = z.infer<typeof PromptSourceState>;

/** Options of a `PromptSource`. */
export interface PromptSourceOptions {
  /** Each environment's training rows (one input per row). */
  rows_E: readonly (readonly RolloutInput[])[];
  seed: number;
  /** Each environment's id and row sampler (`[env.curriculum.sampler]`); default: standard, named by index. */
  samplers_E?: readonly { envId: string; config: RowSamplerConfig }[];
  /** Where a resumed run's source stood; absent: a fresh start. */
  state?: PromptSourceState | undefined;
  /**
   * Each environment's relative weight in the mixture (its [[env]] ratio; env-weights.ts);
   * default: its row count.
   */
  weights_E?: readonly number[] | undefined;
}

/** A drawn prompt: which environment, and its row. */
export interface DrawnPrompt {
  envIndex: number;
  input: RolloutInput;
}

/** Draws prompts from several environments' rows; see the file comment. */
export class PromptSource {
  private readonly rng: Rng;
  private readonly rows_E: readonly (readonly RolloutInput[])[];
  private readonly samplers_E: RowSampler[];
  private readonly weights_E: readonly number[];
  private readonly total: number;

  constructor(options: PromptSourceOptions) {
    const { rows_E, seed, state } = options;
    this.rows_E = rows_E;
    if (rows_E.some((rows) => rows.length === 0)) {
      throw new RangeError("every environment needs at least one training row");
    }
    this.weights_E = options.weights_E ?? rows_E.map((rows) => rows.length);
    this.total = this.weights_E.reduce((a, b) => a + b, 0);
    if (state) {
      if (state.rows.length !== rows_E.length) {
        throw new RangeError(
          `the saved data order covers ${state.rows.length} environments but the config has ${rows_E.length}`,
        );
      }
      this.rng = Rng.fromState(state.rng);
    } else {
      this.rng = trainRng(mixSeed(seed, 0x5eed));
    }
    this.samplers_E = rows_E.map((rows, envIndex) =>
      createRowSampler({
        envId: options.samplers_E?.[envIndex]?.envId ?? `environment ${envIndex}`,
        config: options.samplers_E?.[envIndex]?.config ?? { type: "standard" },
        exampleIds: rows.map((row) => row.exampleId),
        seed,
        envIndex,
        state: state?.rows[envIndex],
      }),
    );
  }

  /** The next prompt. */
  next(): DrawnPrompt {
    let pick = this.rng.nextFloat() * this.total;
    let envIndex = 0;
    while (pick >= this.weights_E[envIndex]! && envIndex < this.rows_E.length - 1) {
      pick -= this.weights_E[envIndex]!;
      envIndex += 1;
    }
    const row = this.samplers_E[envIndex]!.next();
    return { envIndex, input: this.rows_E[envIndex]![row]! };
  }

  /** A finished group's mean reward for its row, for the environment's sampler. */
  observe(envIndex: number, exampleId: number, meanReward: number): void {
    this.samplers_E[envIndex]!.observe(exampleId, meanReward);
  }

  /** Where each environment's rows stand. */
  seen(): RowsSeen[] {
    return this.samplers_E.map((sampler) => sampler.seen());
  }

  /** The state to save in a checkpoint. */
  state(): PromptSourceState {
    return { rng: this.rng.state(), rows: this.samplers_E.map((sampler) => sampler.state()) };
  }
}

/** A checkpoint written before curricula kept each environment's epoch and position as `cursors`. */
function fromCursors(saved: unknown): unknown {
  if (typeof saved !== "object" || saved === null || !("cursors" in saved) || !Array.isArray(saved.cursors)) {
    return saved;
  }
  const { cursors, ...rest } = saved as { cursors: unknown[] };
  return { ...rest, rows: cursors.map((cursor) => ({ type: "standard", ...(cursor as object) })) };
}
