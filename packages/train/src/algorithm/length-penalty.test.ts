import { describe, expect, it } from "vitest";
import { computeAdvantages } from "./advantages.ts";
import { lengthPenalties, type RolloutLength } from "./length-penalty.ts";

const weights = { output: 0.25, input: 0.1, turns: 0.1 };
const single = (outputTokens: number): RolloutLength => ({ outputTokens, inputTokens: 100, turns: 1 });

describe("the linear length penalty", () => {
  it("is pass_rate × the weighted shares of the group's longest output, input and turns", () => {
    const rewards_G = [0.6, 0.6, 0.6, 0.6];
    const penalties_G = lengthPenalties(
      rewards_G,
      [single(64), single(128), single(32), single(128)],
      weights,
    );
    // the same input and turns everywhere: those terms are a constant 0.6 × (0.1 + 0.1)
    expect(penalties_G).toEqual(
      [0.5, 1, 0.25, 1].map((share) => expect.closeTo(0.6 * (0.25 * share + 0.2), 12)),
    );
  });

  it("gives the shorter of two equally good rollouts the larger advantage, and still sums to zero", () => {
    const rewards_G = [0.7, 0.7, 0.5, 0.9];
    const lengths_G = [single(60), single(128), single(60), single(60)];
    const advantages_G = computeAdvantages(rewards_G, {
      penalties_G: lengthPenalties(rewards_G, lengths_G, weights),
    });
    expect(advantages_G[0]!).toBeGreaterThan(advantages_G[1]!);
    expect(advantages_G[0]! - advantages_G[1]!).toBeCloseTo(0.7 * 0.25 * (1 - 60 / 128), 12);
    expect(Math.abs(advantages_G.reduce((a, b) => a + b, 0))).toBeLessThan(1e-12);
  });

  it("costs a group that fails everything nothing, so it never outweighs learning to succeed", () => {
    expect(lengthPenalties([0, 0, 0], [single(10), single(50), single(128)], weights)).toEqual([0, 0, 0]);
  });

  it("is zero with zero weights, and leaves the advantages as they were", () => {
    const rewards_G = [0.2, 0.8, 0.5];
    const penalties_G = lengthPenalties(rewards_G, [single(10), single(90), single(40)], {
      output: 0,
      input: 0,
      turns: 0,
    });
    expect(penalties_G).toEqual([0, 0, 0]);
    expect(computeAdvantages(rewards_G, { penalties_G })).toEqual(computeAdvantages(rewards_G));
  });

  it("counts more turns against a multi-turn rollout", () => {
    const lengths_G = [
      { outputTokens: 50, inputTokens: 400, turns: 5 },
      { outputTokens: 50, inputTokens: 400, turns: 3 },
    ];
    const [five, three] = lengthPenalties([1, 1], lengths_G, weights);
    expect(five! - three!).toBeCloseTo(0.1 * (1 - 3 / 5), 12);
  });
});
