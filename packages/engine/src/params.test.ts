import { describe, expect, it } from "vitest";
import { parseModelConfig } from "./config.ts";
import { initParameters, namedTensors, parameterCount, tensorSpecs } from "./params.ts";

const config = parseModelConfig({ vocabSize: 263, dModel: 16, nLayers: 2, nHeads: 4, dFF: 48, maxSeqLen: 8 });

describe("the parameter layout", () => {
  it("names every tensor as PyTorch would, with (out, in) linear weights", () => {
    const specs = tensorSpecs(config);
    expect(specs.slice(0, 10).map((s) => [s.name, s.shape])).toEqual([
      ["tok_emb.weight", [263, 16]],
      ["layers.0.attn_norm.weight", [16]],
      ["layers.0.attn.wq.weight", [16, 16]],
      ["layers.0.attn.wk.weight", [16, 16]],
      ["layers.0.attn.wv.weight", [16, 16]],
      ["layers.0.attn.wo.weight", [16, 16]],
      ["layers.0.mlp_norm.weight", [16]],
      ["layers.0.mlp.w1.weight", [48, 16]],
      ["layers.0.mlp.w3.weight", [48, 16]],
      ["layers.0.mlp.w2.weight", [16, 48]],
    ]);
    expect(specs.at(-1)!.name).toBe("norm.weight");
    expect(parameterCount(config)).toBe(263 * 16 + 2 * (2 * 16 + 4 * 16 * 16 + 3 * 48 * 16) + 16);
  });

  it("gives named views into the flat buffer", () => {
    const data = new Float32Array(parameterCount(config));
    const named = namedTensors(config, data);
    named.get("layers.1.mlp.w2.weight")![0] = 5;
    const spec = tensorSpecs(config).find((s) => s.name === "layers.1.mlp.w2.weight")!;
    expect(data[spec.offset]).toBe(5);
    expect(named.size).toBe(tensorSpecs(config).length);
  });

  it("initialises deterministically from a seed: norms at one, weights small and centred", () => {
    const a = new Float32Array(parameterCount(config));
    const b = new Float32Array(parameterCount(config));
    initParameters(config, a, 3);
    initParameters(config, b, 3);
    expect(b).toEqual(a);
    const named = namedTensors(config, a);
    expect(Array.from(named.get("norm.weight")!)).toEqual(new Array(16).fill(1));
    const emb = Array.from(named.get("tok_emb.weight")!);
    const std = Math.sqrt(emb.reduce((s, x) => s + x * x, 0) / emb.length);
    expect(std).toBeCloseTo(0.02, 2);
  });
});
