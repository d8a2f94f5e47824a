import { describe, expect, it } from "vitest";
import { computeAdvantages, meanStd } from "./advantages.ts";
import { judgeGroup } from "./difficulty-filter.ts";

/** A small deterministic generator, so the groups below are the same on every run. */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe("group-relative advantages", () => {
  it("are each reward minus the group's mean", () => {
    expect(computeAdvantages([1, 0, 0, 1])).toEqual([0.5, -0.5, -0.5, 0.5]);
    expect(computeAdvantages([0.2, 0.4, 0.9])).toEqual(
      [0.2 - 0.5, 0.4 - 0.5, 0.9 - 0.5].map((x) => expect.closeTo(x, 12)),
    );
  });

  it("sum to zero in every group, with and without std normalisation", () => {
    const next = lcg(42);
    for (let trial = 0; trial < 500; trial++) {
      const G = 2 + Math.floor(next() * 31);
      const binary = trial % 2 === 0;
      const rewards_G = Array.from({ length: G }, () => (binary ? Math.round(next()) : next() * 3 - 1));
      for (const normalizeStd of [false, true]) {
        const advantages_G = computeAdvantages(rewards_G, { normalizeStd });
        expect(advantages_G).toHaveLength(G);
        expect(Math.abs(advantages_G.reduce((a, b) => a + b, 0))).toBeLessThan(1e-9);
      }
    }
  });

  it("with std normalisation have unit spread, and a group with no spread gets zeros", () => {
    expect(meanStd(computeAdvantages([0, 1, 1, 0, 1, 0], { normalizeStd: true })).std).toBeCloseTo(1, 5);
    expect(computeAdvantages([0.7, 0.7, 0.7], { normalizeStd: true })).toEqual([0, 0, 0]);
    expect(computeAdvantages([])).toEqual([]);
  });
});

describe("the difficulty filter", () => {
  const thresholds = { easyThreshold: 0.9, hardThreshold: 0.1 };

  it("drops groups at or above easy_threshold and at or below hard_threshold", () => {
    expect(judgeGroup([1, 1, 1, 0.7], thresholds)).toBe("too_easy"); // mean 0.925
    expect(judgeGroup([1, 1, 0.6, 1], { easyThreshold: 0.9 })).toBe("too_easy"); // mean exactly 0.9
    expect(judgeGroup([0, 0, 0.4, 0], thresholds)).toBe("too_hard"); // mean exactly 0.1
    expect(judgeGroup([0, 1, 1, 0], thresholds)).toBe("keep");
  });

  it("always drops groups whose rollouts all scored the same, and keeps everything else without thresholds", () => {
    expect(judgeGroup([0.5, 0.5, 0.5], thresholds)).toBe("no_spread");
    expect(judgeGroup([1, 1, 1], {})).toBe("no_spread");
    expect(judgeGroup([1, 1, 0.99], {})).toBe("keep");
    expect(judgeGroup([0, 0, 0.01], {})).toBe("keep");
  });
});
