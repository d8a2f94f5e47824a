/**
 * The order in which prompts are drawn for training: a mixture of the environments' training rows,
 * each environment chosen with probability proportional to its weight (its [[env]] ratio, else its
 * row count), and within one environment every row once per epoch in a seeded shuffled order. The
 * position in that order and the generator's state are data (`PromptSourceState`), saved in every
 * checkpoint, so a resumed run draws the same prompts as an unbroken one.
 */
import { type RolloutInput, seededShuffle } from "@vf-rl/core";
import { Rng } from "@vf-rl/engine";
import { z } from "zod";
import { mixSeed } from "./policy-client.ts";
import { RngState, trainRng } from "./train-rng.ts";

/** Where the source stands: the generator, and each environment's epoch and position. */
export const PromptSourceState = z.object({
  rng: RngState,
  cursors: z.array(
    z.object({ epoch: z.number().int().nonnegative(), position: z.number().int().nonnegative() }),
  ),
});
export type PromptSourceState = z.infer<typeof PromptSourceState>;

/** A drawn prompt: which environment, and its row. */
export interface DrawnPrompt {
  envIndex: number;
  input: RolloutInput;
}

/** Draws prompts from several environments' rows; see the file comment. */
export class PromptSource {
  private readonly rng: Rng;
  private readonly cursors: { epoch: number; position: number }[];
  private readonly orders = new Map<number, { epoch: number; order: number[] }>();
  private readonly weights_E: readonly number[];
  private readonly total: number;

  /**
   * `rows_E` holds each environment's training rows (one input per row), `weights_E` its relative
   * weight in the mixture (its [[env]] ratio; env-weights.ts), by default its row count.
   */
  constructor(
    private readonly rows_E: readonly (readonly RolloutInput[])[],
    private readonly seed: number,
    state?: PromptSourceState,
    weights_E?: readonly number[],
  ) {
    if (rows_E.some((rows) => rows.length === 0)) {
      throw new RangeError("every environment needs at least one training row");
    }
    this.weights_E = weights_E ?? rows_E.map((rows) => rows.length);
    this.total = this.weights_E.reduce((a, b) => a + b, 0);
    if (state) {
      if (state.cursors.length !== rows_E.length) {
        throw new RangeError(
          `the saved data order covers ${state.cursors.length} environments but the config has ${rows_E.length}`,
        );
      }
      this.rng = Rng.fromState(state.rng);
      this.cursors = state.cursors.map((c) => ({ ...c }));
    } else {
      this.rng = trainRng(mixSeed(seed, 0x5eed));
      this.cursors = rows_E.map(() => ({ epoch: 0, position: 0 }));
    }
  }

  /** The next prompt. */
  next(): DrawnPrompt {
    let pick = this.rng.nextFloat() * this.total;
    let envIndex = 0;
    while (pick >= this.weights_E[envIndex]! && envIndex < this.rows_E.length - 1) {
      pick -= this.weights_E[envIndex]!;
      envIndex += 1;
    }
    const rows = this.rows_E[envIndex]!;
    const cursor = this.cursors[envIndex]!;
    if (cursor.position >= rows.length) {
      cursor.epoch += 1;
      cursor.position = 0;
    }
    const row = this.order(envIndex, cursor.epoch)[cursor.position]!;
    cursor.position += 1;
    return { envIndex, input: rows[row]! };
  }

  /** The state to save in a checkpoint. */
  state(): PromptSourceState {
    return { rng: this.rng.state(), cursors: this.cursors.map((c) => ({ ...c })) };
  }

  /** Row indices of one environment's epoch, in their shuffled order. */
  private order(envIndex: number, epoch: number): number[] {
    const cached = this.orders.get(envIndex);
    if (cached?.epoch === epoch) return cached.order;
    const indices = this.rows_E[envIndex]!.map((_, i) => i);
    const order = seededShuffle(indices, mixSeed(this.seed, envIndex, epoch));
    this.orders.set(envIndex, { epoch, order });
    return order;
  }
}
