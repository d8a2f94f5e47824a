import { describe, expect, it } from "vitest";
import { LrSchedule, learningRateAt, warmupConstant, warmupCosine } from "./lr-schedule.ts";

describe("learning-rate schedules", () => {
  it("warm up linearly, then stay constant", () => {
    const o = { peakLr: 1e-3, warmupSteps: 4 };
    expect([0, 1, 2, 3, 4, 100].map((s) => warmupConstant(s, o))).toEqual([
      2.5e-4, 5e-4, 7.5e-4, 1e-3, 1e-3, 1e-3,
    ]);
  });

  it("warm up, then follow a half cosine down to the floor at totalSteps", () => {
    const o = { peakLr: 1, warmupSteps: 2, totalSteps: 12, minLr: 0.1 };
    expect(warmupCosine(0, o)).toBe(0.5);
    expect(warmupCosine(2, o)).toBe(1);
    expect(warmupCosine(7, o)).toBeCloseTo(0.55, 10); // halfway: the mean of peak and floor
    expect(warmupCosine(12, o)).toBeCloseTo(0.1, 10);
    expect(warmupCosine(50, o)).toBeCloseTo(0.1, 10);
  });

  it("can be given as data, with defaults, as a config file would", () => {
    const schedule = LrSchedule.parse({ type: "cosine", peakLr: 3e-4, totalSteps: 100 });
    expect(schedule).toEqual({ type: "cosine", peakLr: 3e-4, warmupSteps: 0, totalSteps: 100, minLr: 0 });
    expect(learningRateAt(schedule, 0)).toBe(3e-4);
    expect(learningRateAt(LrSchedule.parse({ type: "constant", peakLr: 1 }), 9)).toBe(1);
    expect(LrSchedule.safeParse({ type: "linear", peakLr: 1 }).success).toBe(false);
  });
});
