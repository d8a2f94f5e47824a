import { describe, expect, it } from "vitest";
import { parseModelConfig } from "../config.ts";
import { parameterCount, tensorSpecs } from "../params.ts";
import { AdamParams } from "../trainer/protocol.ts";
import { AdamW } from "./adamw.ts";
import { clipGradNorm, gradNorm } from "./grad-clip.ts";

const config = parseModelConfig({ vocabSize: 5, dModel: 4, nLayers: 1, nHeads: 2, dFF: 8, maxSeqLen: 4 });
const specs = tensorSpecs(config);

describe("AdamW", () => {
  it("moves every weight by about the learning rate on its first step, against the gradient's sign", () => {
    const P = parameterCount(config);
    const params = new Float64Array(P);
    const grads = Float64Array.from({ length: P }, (_, i) => (i % 2 ? 0.3 : -2));
    new AdamW(specs, "f64").update(params, grads, AdamParams.parse({ learningRate: 0.01 }), 0.01);
    for (let i = 0; i < P; i++) expect(params[i]).toBeCloseTo(i % 2 ? -0.01 : 0.01, 6);
  });

  it("decays matrices and the embedding but never the norm gains", () => {
    const P = parameterCount(config);
    const params = new Float64Array(P).fill(1);
    new AdamW(specs, "f64").update(
      params,
      new Float64Array(P),
      AdamParams.parse({ learningRate: 0.1, weightDecay: 0.5 }),
      0.1,
    );
    for (const spec of specs) {
      expect(params[spec.offset]).toBeCloseTo(spec.kind === "norm" ? 1 : 0.95, 12);
    }
  });
});

describe("gradient clipping", () => {
  it("scales the gradient to the maximum norm and reports the norm before clipping", () => {
    const grads = Float32Array.of(3, 4);
    expect(clipGradNorm(grads, 1)).toBe(5);
    expect(gradNorm(grads)).toBeCloseTo(1, 5);
  });

  it("leaves a small gradient, or any gradient with clipping off, unchanged", () => {
    const small = Float32Array.of(0.3, 0.4);
    expect(clipGradNorm(small, 1)).toBeCloseTo(0.5, 6);
    expect(small).toEqual(Float32Array.of(0.3, 0.4));
    const big = Float32Array.of(30, 40);
    expect(clipGradNorm(big, 0)).toBe(50);
    expect(big).toEqual(Float32Array.of(30, 40));
  });
});
