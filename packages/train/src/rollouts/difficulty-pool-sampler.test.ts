import { UserError } from "@vf-rl/core";
import { describe, expect, it } from "vitest";
import { DEFAULT_POOLS, type DifficultyPool } from "../config/curriculum-config.ts";
import { DifficultyPoolSampler, DifficultyPoolState } from "./difficulty-pool-sampler.ts";

const exampleIds = [10, 11, 12, 13];

function sampler(pools: Record<string, DifficultyPool> = DEFAULT_POOLS, state?: DifficultyPoolState) {
  return new DifficultyPoolSampler({
    envId: "toy",
    config: { type: "difficulty_pool", pools },
    exampleIds,
    seed: 0,
    envIndex: 0,
    state,
  });
}

/** How often each row (by index) is drawn in `n` draws. */
function counts(s: DifficultyPoolSampler, n: number): number[] {
  const seen = exampleIds.map(() => 0);
  for (let i = 0; i < n; i++) seen[s.next()]! += 1;
  return seen;
}

describe("the difficulty pool sampler", () => {
  it("weighs each row by the pool of its latest reward, an unscored row by 1", () => {
    const s = sampler({ hard: { threshold: 0.25, weight: 0.5 }, easy: { threshold: 1, weight: 0 } });
    s.observe(10, 1); // easy: retired
    s.observe(11, 0.1); // hard: half an unscored row's chance
    s.observe(12, 0.9);
    s.observe(12, 0.2); // the latest reward counts: hard now
    const drawn = counts(s, 5000);
    expect(drawn[0]).toBe(0);
    expect(drawn[1]! / drawn[3]!).toBeCloseTo(0.5, 1);
    expect(drawn[2]! / drawn[3]!).toBeCloseTo(0.5, 1);
    expect(s.seen()).toEqual({ rows: 4, seen: 3, pools: { hard: 2, easy: 1 }, retired: 1 });
  });

  it("puts a reward above every threshold in the highest pool", () => {
    const s = sampler({ low: { threshold: 0.5, weight: 1 }, high: { threshold: 0.8, weight: 0 } });
    s.observe(13, 3);
    expect(s.seen().pools).toEqual({ low: 0, high: 1 });
    expect(counts(s, 200)[3]).toBe(0);
  });

  it("continues exactly from a saved state, as a resumed run must", () => {
    const unbroken = sampler();
    counts(unbroken, 7);
    unbroken.observe(11, 0.5);
    unbroken.observe(12, 1);
    const state = DifficultyPoolState.parse(JSON.parse(JSON.stringify(unbroken.state()))); // as in progress.json
    const resumed = sampler(DEFAULT_POOLS, state);
    expect(counts(resumed, 50)).toEqual(counts(unbroken, 50));
    expect(resumed.seen()).toEqual(unbroken.seen());
  });

  it("stops with what to do when every row is retired", () => {
    const s = sampler({ all: { threshold: 1, weight: 0 }, none: { threshold: 2, weight: 1 } });
    for (const id of exampleIds) s.observe(id, 1);
    expect(() => s.next()).toThrow(UserError);
    expect(() => s.next()).toThrow(
      /^every training row of toy is retired \(its latest reward puts it in pool all, of weight 0\): give those pools a weight above 0/,
    );
  });
});
