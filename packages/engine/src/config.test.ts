import { describe, expect, it } from "vitest";
import { parseModelConfig, safeParseModelConfig } from "./config.ts";
import { ConfigError } from "./errors.ts";

describe("the model config", () => {
  it("fills defaults for ropeTheta and normEps", () => {
    const config = parseModelConfig({
      vocabSize: 263,
      dModel: 64,
      nLayers: 2,
      nHeads: 4,
      dFF: 256,
      maxSeqLen: 48,
    });
    expect(config).toMatchObject({ ropeTheta: 10_000, normEps: 1e-5 });
  });

  it("names every bad key and says what to do", () => {
    const result = safeParseModelConfig({
      vocabSize: 263,
      dModel: 64,
      nLayers: 0,
      nHeads: 5,
      dFF: 256,
      maxSeqLen: 48,
    });
    expect(result.success).toBe(false);
    const error = (result as { error: ConfigError }).error;
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.issues).toHaveLength(2);
    expect(error.message).toMatch(
      /nLayers: .*; nHeads: dModel \(64\) must be divisible by nHeads \(5\): fix these keys/,
    );
  });

  it("rejects unknown keys, so a typo is caught", () => {
    expect(() =>
      parseModelConfig({ vocabSize: 3, dModel: 4, nLayers: 1, nHeads: 1, dFF: 4, maxSeqLen: 4, nLayer: 2 }),
    ).toThrow(/Unrecognized key/);
  });

  it("needs an even head size for rotary pairs", () => {
    expect(() =>
      parseModelConfig({ vocabSize: 3, dModel: 6, nLayers: 1, nHeads: 2, dFF: 4, maxSeqLen: 4 }),
    ).toThrow(/head size dModel\/nHeads \(3\) must be even/);
  });
});
