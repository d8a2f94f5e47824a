import { tokenizer } from "@vf-rl/engine";
import { describe, expect, it } from "vitest";
import { FiltersConfig } from "../config/filters-config.ts";
import { countVerdicts, judgeRollouts, rolloutFilters, sampledTokens } from "./rollout-filters.ts";

/** A rollout's trajectory: one turn per [ids, logprobs] pair. */
function rollout(...turns: [number[], number[]][]) {
  return {
    trajectory: turns.map(([ids, logprobs]) => ({
      finish_reason: "stop",
      is_truncated: false,
      tokens: { prompt_ids: [tokenizer.bos], completion_ids: ids, completion_logprobs: logprobs },
    })),
  };
}

const plain = rollout([tokenizer.encode("fine"), [-1, -1, -1, -1]]);
const garbled = rollout([
  [0x66, 0xf3, 0x66],
  [-1, -9, -1],
]); // 0xf3 at p ≈ 1e-4
const looping = rollout([Array(6).fill(0x61), Array(6).fill(-0.001)]);

const filters = (raw: unknown[]) => rolloutFilters(FiltersConfig.parse(raw), tokenizer.vocabSize);

describe("rollout filters", () => {
  it("read the sampled tokens of every turn, in order", () => {
    const two = rollout(
      [
        [1, 2],
        [-1, -2],
      ],
      [[3], [-3]],
    );
    expect(sampledTokens(two)).toEqual({ ids_T: [1, 2, 3], logprobs_T: [-1, -2, -3] });
  });

  it("only count what they flag unless enforced", () => {
    const watch = filters([{ type: "gibberish" }, { type: "repetition", window: 5 }]);
    const verdicts = judgeRollouts([plain, garbled, looping], [0.5, -0.5, 0.25], {
      filters: watch,
      filterZeroAdvantages: false,
    });
    expect(verdicts).toEqual([
      { flagged: { gibberish: false, repetition: false }, dropped: null },
      { flagged: { gibberish: true, repetition: false }, dropped: null },
      { flagged: { gibberish: false, repetition: true }, dropped: null },
    ]);
  });

  it("drop what an enforcing filter flags, naming the first one listed", () => {
    const enforced = filters([
      { type: "repetition", window: 5, enforce: true },
      { type: "gibberish", enforce: true },
    ]);
    const garbledLoop = rollout([
      [0xf3, ...Array(6).fill(0x61)],
      [-9, ...Array(6).fill(-0.001)],
    ]);
    const verdicts = judgeRollouts([plain, garbled, looping, garbledLoop], [0.5, -0.5, 0.25, -0.25], {
      filters: enforced,
      filterZeroAdvantages: false,
    });
    expect(verdicts.map((v) => v.dropped)).toEqual([null, "gibberish", "repetition", "repetition"]);
    expect(verdicts[3]!.flagged).toEqual({ repetition: true, gibberish: true });
  });

  it("leave out rollouts whose advantage is zero, float noise included, when asked", () => {
    const noise = 0.2 - (0.1 + 0.2 + 0.3) / 3; // −2.8e-17
    const options = { filters: [], filterZeroAdvantages: true };
    expect(judgeRollouts([plain, plain, plain], [0.4, 0, noise], options).map((v) => v.dropped)).toEqual([
      null,
      "zero_advantage",
      "zero_advantage",
    ]);
    const kept = judgeRollouts([plain, plain], [0, 0], { ...options, filterZeroAdvantages: false });
    expect(kept.map((v) => v.dropped)).toEqual([null, null]);
  });

  it("are counted per detector, with zero-advantage drops apart", () => {
    const both = filters([
      { type: "gibberish", enforce: true },
      { type: "repetition", window: 5 },
    ]);
    const verdicts = judgeRollouts([plain, garbled, looping, plain], [0.5, -0.5, 0, 0], {
      filters: both,
      filterZeroAdvantages: true,
    });
    expect(countVerdicts(verdicts)).toEqual({
      detectors: { gibberish: { detected: 1, dropped: 1 }, repetition: { detected: 1, dropped: 0 } },
      zeroAdvantage: 2,
    });
    expect(countVerdicts([])).toEqual({ detectors: {}, zeroAdvantage: 0 });
  });
});

describe("[[filters]]", () => {
  it("take defaults made for the byte tokenizer", () => {
    expect(FiltersConfig.parse([{ type: "gibberish" }, { type: "repetition" }])).toEqual([
      { type: "gibberish", enforce: false, token_id_threshold: 127, logprob_offset: 2 },
      { type: "repetition", enforce: false, window: 128, prob_threshold: 0.99 },
    ]);
  });

  it("refuse a type listed twice, and unknown keys", () => {
    const twice = FiltersConfig.safeParse([{ type: "gibberish" }, { type: "gibberish", enforce: true }]);
    expect(twice.error?.issues[0]).toMatchObject({
      path: [1, "type"],
      message: expect.stringMatching(/listed twice/),
    });
    expect(FiltersConfig.safeParse([{ type: "repetition", windw: 3 }]).success).toBe(false);
  });
});
