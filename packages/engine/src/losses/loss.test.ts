import { describe, expect, it } from "vitest";
import { Loss, type LossInput } from "../trainer/protocol.ts";
import { evaluateLoss, type LossTargets } from "./loss.ts";

const V = 4;
const uniform = new Float32Array(2 * V); // two rows of equal logits: p = 1/4 everywhere

function evaluate(loss: LossInput, targets: LossTargets): ReturnType<typeof evaluateLoss> {
  return evaluateLoss(Loss.parse(loss), uniform, targets, 2, V, 1 / 2, null, new Float64Array(2));
}

describe("token losses", () => {
  it("report cross-entropy and entropy of log V for a uniform model, and no mismatch without a sampler", () => {
    const sums = evaluate(
      { type: "cross_entropy" },
      { tokens: Int32Array.of(1, 3), samplerLogprobs: null, advantages: null },
    );
    expect(sums.loss / 2).toBeCloseTo(Math.log(4), 12);
    expect(sums.entropy / 2).toBeCloseTo(Math.log(4), 12);
    expect(sums).toMatchObject({ mismatchKl: 0, masked: 0, tokens: 2 });
  });

  it("weigh advantages by the ratio r = p / p_sampler, and measure the mismatch as r − log r − 1", () => {
    const targets = {
      tokens: Int32Array.of(0, 1),
      samplerLogprobs: Float64Array.of(Math.log(1 / 4), Math.log(1 / 8)), // r = 1, then r = 2
      advantages: Float64Array.of(1, -1),
    };
    const sums = evaluate({ type: "importance_sampling" }, targets);
    expect(sums.loss).toBeCloseTo(-(1 * 1 + 2 * -1), 12);
    expect(sums.mismatchKl).toBeCloseTo(0 + (2 - Math.log(2) - 1), 12);
  });

  it("drop tokens whose ratio leaves [maskLow, maskHigh] from loss and gradient, and count them", () => {
    const targets = {
      tokens: Int32Array.of(0, 1),
      samplerLogprobs: Float64Array.of(Math.log(1 / 4), Math.log(1 / 400)), // r = 1, then r = 100
      advantages: Float64Array.of(1, 5),
    };
    const dlogits = new Float32Array(2 * V);
    const sums = evaluateLoss(
      Loss.parse({ type: "masked_importance_sampling" }),
      uniform,
      targets,
      2,
      V,
      1 / 2,
      dlogits,
      new Float64Array(2),
    );
    expect(sums).toMatchObject({ loss: -1, masked: 1 });
    expect(dlogits.subarray(V).every((g) => g === 0)).toBe(true); // exactly zero gradient for the dropped token
    expect(dlogits.subarray(0, V).some((g) => g !== 0)).toBe(true);
  });

  it("refuse a policy-gradient loss without sampler logprobs, saying what to do", () => {
    expect(() =>
      evaluate(
        { type: "importance_sampling" },
        { tokens: Int32Array.of(0, 1), samplerLogprobs: null, advantages: null },
      ),
    ).toThrow(/needs samplerLogprobs and advantages on every batch item: add them, or use cross_entropy/);
  });
});
