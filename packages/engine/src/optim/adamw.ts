/**
 * AdamW with decoupled weight decay, on the flat parameter buffer. Matches torch.optim.AdamW step
 * for step (decay first, then the bias-corrected Adam update), so the PyTorch fixture can check it.
 */
import { allocFloats, type DType, type Floats } from "../floats.ts";
import type { TensorSpec } from "../params.ts";
import type { AdamParams } from "../trainer/protocol.ts";

/** The optimizer state: first and second moments in the parameter layout, and the step count. */
export class AdamW {
  readonly m: Floats; // (P)
  readonly v: Floats; // (P)
  step = 0;
  /** [offset, size] of every tensor weight decay applies to (all but the norm gains). */
  private readonly decayed: [number, number][];

  constructor(specs: readonly TensorSpec[], dtype: DType) {
    const last = specs.at(-1)!;
    const P = last.offset + last.size;
    this.m = allocFloats(dtype, P);
    this.v = allocFloats(dtype, P);
    this.decayed = specs.filter((s) => s.kind !== "norm").map((s) => [s.offset, s.size]);
  }

  /** One update of `params` (P) from `grads` (P) at learning rate `lr`. */
  update(params: Floats, grads: Floats, hp: AdamParams, lr: number): void {
    this.step += 1;
    const { beta1: b1, beta2: b2, eps } = hp;
    if (hp.weightDecay > 0) {
      const keep = 1 - lr * hp.weightDecay;
      for (const [offset, size] of this.decayed) {
        for (let i = offset; i < offset + size; i++) params[i] = params[i]! * keep;
      }
    }
    const stepSize = lr / (1 - b1 ** this.step);
    const sqrtCorrection2 = Math.sqrt(1 - b2 ** this.step);
    const m = this.m;
    const v = this.v;
    for (let i = 0; i < params.length; i++) {
      const g = grads[i]!;
      m[i] = b1 * m[i]! + (1 - b1) * g;
      v[i] = b2 * v[i]! + (1 - b2) * g * g;
      params[i] = params[i]! - (stepSize * m[i]!) / (Math.sqrt(v[i]!) / sqrtCorrection2 + eps);
    }
  }

  /** Forgets the moments and the step count. */
  reset(): void {
    this.m.fill(0);
    this.v.fill(0);
    this.step = 0;
  }
}
