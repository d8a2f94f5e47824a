import { describe, expect, it } from "vitest";
import { keptSteps } from "./retention.ts";

describe("checkpoint retention", () => {
  const steps = [5, 10, 15, 20, 25, 30, 35];

  it("keeps the newest keep_last", () => {
    expect(keptSteps(steps, { keep_last: 2 })).toEqual([30, 35]);
    expect(keptSteps([3, 1, 2], { keep_last: 5 })).toEqual([1, 2, 3]);
  });

  it("keeps every multiple of keep_interval for good, beside the newest keep_last", () => {
    expect(keptSteps(steps, { keep_last: 1, keep_interval: 10 })).toEqual([10, 20, 30, 35]);
    expect(keptSteps(steps, { keep_last: 2, keep_interval: 15 })).toEqual([15, 30, 35]);
  });
});
