import { describe, expect, it } from "vitest";
import { RolloutRecord } from "../records/rollout-record.ts";
import { computePassAtK, passAllK, passAtK, passKs } from "./pass-at-k.ts";

const out = (exampleId: number, reward: number, rolloutIndex = 0) =>
  RolloutRecord.parse({
    example_id: exampleId,
    rollout_index: rolloutIndex,
    prompt: [],
    completion: [],
    reward,
  });

/** r rollouts of one example with these rewards, indices 0..r-1. */
const group = (exampleId: number, rewards: number[]) => rewards.map((reward, i) => out(exampleId, reward, i));

// exact binomial coefficient for the checks (small n only)
function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}

describe("passAtK and passAllK", () => {
  it("match 1 − C(n−c,k)/C(n,k) and C(c,k)/C(n,k) for every small case", () => {
    for (let n = 1; n <= 12; n++)
      for (let c = 0; c <= n; c++)
        for (let k = 1; k <= n; k++) {
          expect(passAtK(n, c, k)).toBeCloseTo(1 - choose(n - c, k) / choose(n, k), 12);
          expect(passAllK(n, c, k)).toBeCloseTo(choose(c, k) / choose(n, k), 12);
        }
  });

  it("stay finite and sensible where factorials would overflow", () => {
    const p = passAtK(2000, 1, 1024);
    expect(p).toBeCloseTo(1024 / 2000, 10);
    expect(passAllK(2000, 1999, 1024)).toBeCloseTo(1 - 1024 / 2000, 10);
    expect(Number.isFinite(passAtK(100_000, 3, 4096))).toBe(true);
  });

  it("refuses k above n", () => {
    expect(() => passAtK(2, 1, 4)).toThrow(RangeError);
  });
});

describe("passKs", () => {
  it("is the powers of 2 up to r, and nothing for a single rollout", () => {
    expect(passKs(16)).toEqual([1, 2, 4, 8, 16]);
    expect(passKs(3)).toEqual([1, 2]);
    expect(passKs(1)).toEqual([]);
  });
});

// Ported from verifiers' tests/test_save_utils.py (TestPassAtKMetric, TestBuilderPassAtK).
describe("computePassAtK", () => {
  it("reports k = 1, 2, 4 for 4 rollouts, with the default threshold 0.5", () => {
    const result = computePassAtK(group(0, [1, 0, 1, 0]), { rolloutsPerExample: 4 });
    expect(Object.keys(result.pass_at_k)).toEqual(["1", "2", "4"]);
    expect(Object.keys(result.pass_all_k)).toEqual(["1", "2", "4"]);
  });

  it("counts a rollout correct at reward ≥ the threshold", () => {
    const result = computePassAtK(group(0, [0.4, 0.6, 0.8, 0.3]), { rolloutsPerExample: 4, threshold: 0.7 });
    expect(result.pass_at_k["1"]).toBeCloseTo(0.25); // 1 − C(3,1)/C(4,1)
    expect(result.pass_at_k["2"]).toBeCloseTo(0.5); // 1 − C(3,2)/C(4,2)
    expect(result.pass_all_k["1"]).toBeCloseTo(0.25); // C(1,1)/C(4,1)
  });

  it("puts the boundary at exactly the threshold", () => {
    const result = computePassAtK(group(0, [0.49, 0.5, 1, 0]), { rolloutsPerExample: 4 });
    expect(result.pass_at_k["1"]).toBeCloseTo(0.5);
  });

  it("leaves out examples that do not have all their rollouts", () => {
    const records = [...group(0, [1, 1, 1, 1]), ...group(1, [0, 0])];
    const result = computePassAtK(records, { rolloutsPerExample: 4 });
    expect(result.pass_at_k["1"]).toBeCloseTo(1);
    expect(result.pass_all_k["1"]).toBeCloseTo(1);
  });

  it("is empty with no rows, and with a single rollout per example", () => {
    expect(computePassAtK([], { rolloutsPerExample: 4 })).toEqual({ pass_at_k: {}, pass_all_k: {} });
    expect(computePassAtK([out(0, 1)], { rolloutsPerExample: 1 })).toEqual({ pass_at_k: {}, pass_all_k: {} });
  });

  it("gives 1 everywhere when all are correct and 0 when none is", () => {
    const all = computePassAtK(group(0, Array(8).fill(1)), { rolloutsPerExample: 8 });
    expect(Object.keys(all.pass_at_k)).toEqual(["1", "2", "4", "8"]);
    for (const k of Object.keys(all.pass_at_k)) {
      expect(all.pass_at_k[k]).toBeCloseTo(1);
      expect(all.pass_all_k[k]).toBeCloseTo(1);
    }
    const none = computePassAtK(group(0, Array(8).fill(0)), { rolloutsPerExample: 8 });
    for (const k of Object.keys(none.pass_at_k)) {
      expect(none.pass_at_k[k]).toBe(0);
      expect(none.pass_all_k[k]).toBe(0);
    }
  });

  it("handles partial correctness: 2 of 4", () => {
    const result = computePassAtK(group(0, [1, 1, 0, 0]), { rolloutsPerExample: 4 });
    expect(result.pass_at_k["1"]).toBeCloseTo(0.5);
    expect(result.pass_at_k["2"]).toBeCloseTo(1 - 1 / 6);
    expect(result.pass_at_k["4"]).toBeCloseTo(1);
    expect(result.pass_all_k["1"]).toBeCloseTo(0.5);
    expect(result.pass_all_k["2"]).toBeCloseTo(1 / 6);
    expect(result.pass_all_k["4"]).toBeCloseTo(0);
  });

  it("averages over examples", () => {
    const records = [...group(0, [1, 1, 1, 1]), ...group(1, [0, 0, 0, 0])];
    const result = computePassAtK(records, { rolloutsPerExample: 4 });
    expect(result.pass_at_k["1"]).toBeCloseTo(0.5);
    expect(result.pass_all_k["1"]).toBeCloseTo(0.5);
  });

  it("gives k = 1, 2, 4, 8, 16 for 16 rollouts and k = 1, 2 for 3", () => {
    expect(
      Object.keys(computePassAtK(group(0, Array(16).fill(1)), { rolloutsPerExample: 16 }).pass_at_k),
    ).toEqual(["1", "2", "4", "8", "16"]);
    expect(Object.keys(computePassAtK(group(0, [1, 1, 1]), { rolloutsPerExample: 3 }).pass_at_k)).toEqual([
      "1",
      "2",
    ]);
  });

  it("does not depend on the order rows arrive in", () => {
    let seed = 42;
    // a small linear congruential generator: the same "random" rewards on every run
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const records = Array.from({ length: 10 }, (_, e) =>
      group(
        e,
        Array.from({ length: 8 }, () => [0, 0.5, 1][Math.floor(random() * 3)]!),
      ),
    ).flat();
    const shuffled = [...records].sort(() => random() - 0.5);
    expect(computePassAtK(shuffled, { rolloutsPerExample: 8 })).toEqual(
      computePassAtK(records, { rolloutsPerExample: 8 }),
    );
  });
});
