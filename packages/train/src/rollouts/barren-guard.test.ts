import { describe, expect, it } from "vitest";
import { BarrenGuard } from "./barren-guard.ts";

describe("BarrenGuard", () => {
  it("gives up after a number of batches' worth of groups keep nothing, not a number of rounds", () => {
    // a batch of 4 groups with one missing: each round draws one group, and most score all the same
    const guard = new BarrenGuard(4, 10);
    guard.record(4, 3);
    for (let round = 0; round < 39; round++) guard.record(1, 0);
    expect(guard.exhausted).toBe(false); // 39 rounds, fewer than 10 batches' worth of groups
    guard.record(1, 0);
    expect(guard.exhausted).toBe(true);
    expect(guard.barrenDraws).toBe(40);
  });

  it("starts counting again at each kept group", () => {
    const guard = new BarrenGuard(2, 1);
    guard.record(1, 0);
    guard.record(2, 1);
    guard.record(1, 0);
    expect(guard.exhausted).toBe(false);
    guard.record(1, 0);
    expect(guard.exhausted).toBe(true);
  });
});
