import { tokenizer } from "@vf-rl/engine";
import { describe, expect, it } from "vitest";
import { gibberishLogprobThreshold, isGibberish } from "./gibberish-filter.ts";

// The byte tokenizer's defaults: ids above 127 (non-ASCII bytes, special tokens) at p < e⁻² / 263.
const rule = { tokenIdThreshold: 127, logprobThreshold: gibberishLogprobThreshold(tokenizer.vocabSize, 2) };
const text = (s: string) => tokenizer.encode(s);

describe("the gibberish detector", () => {
  it("sits its logprob threshold below the uniform guess of the vocabulary", () => {
    expect(gibberishLogprobThreshold(263, 2)).toBeCloseTo(-Math.log(263) - 2, 12);
    expect(Math.exp(rule.logprobThreshold)).toBeCloseTo(Math.exp(-2) / 263, 9); // ≈ 5e-4
  });

  it("passes plain text, however unlikely its tokens", () => {
    const ids = text("the cat sat");
    expect(
      isGibberish(
        ids,
        ids.map(() => -12),
        rule,
      ),
    ).toBe(false);
  });

  it("passes rare tokens the model meant to write", () => {
    const ids = text("café"); // é is two bytes above 127
    expect(isGibberish(ids, [-0.1, -0.1, -0.1, -0.5, -0.01], rule)).toBe(false);
  });

  it("flags a rollout with one rare token sampled at worse than uniform odds", () => {
    const ids = [...text("the "), 0xf3, ...text("cat")];
    const logprobs = ids.map(() => -0.2);
    expect(isGibberish(ids, logprobs, rule)).toBe(false);
    logprobs[4] = -8; // below −log 263 − 2 ≈ −7.57
    expect(isGibberish(ids, logprobs, rule)).toBe(true);
    logprobs[4] = -7; // rare, but not that unlikely
    expect(isGibberish(ids, logprobs, rule)).toBe(false);
  });

  it("counts only ids strictly above the threshold", () => {
    expect(isGibberish([127], [-20], rule)).toBe(false);
    expect(isGibberish([128], [-20], rule)).toBe(true);
    expect(isGibberish([tokenizer.eot], [-20], rule)).toBe(true); // a turn ended where the model did not mean it to
  });
});
