import { describe, expect, it } from "vitest";
import { OffPolicySchedule } from "./off-policy.ts";

const batches = (schedule: OffPolicySchedule, count: number): number[] =>
  Array.from({ length: count }, (_, b) => schedule.policyOf(b));

describe("the off-policy schedule", () => {
  it("samples batch b with policy max(0, b − max_async_level)", () => {
    expect(batches(new OffPolicySchedule(0), 5)).toEqual([0, 1, 2, 3, 4]); // on-policy
    expect(batches(new OffPolicySchedule(1), 5)).toEqual([0, 0, 1, 2, 3]);
    expect(batches(new OffPolicySchedule(2), 6)).toEqual([0, 0, 0, 1, 2, 3]);
  });

  it("keeps in a checkpoint the older policies of the batches still due", () => {
    expect(new OffPolicySchedule(0).checkpointPolicies(3)).toEqual([]); // batch 3 is sampled by policy 3
    expect(new OffPolicySchedule(1).checkpointPolicies(3)).toEqual([2]);
    expect(new OffPolicySchedule(2).checkpointPolicies(1)).toEqual([0]); // batches 1 and 2 both by policy 0
    expect(new OffPolicySchedule(2).checkpointPolicies(5)).toEqual([3, 4]);
    expect(new OffPolicySchedule(3).checkpointPolicies(0)).toEqual([]); // batches 0..2: policy 0, the trainer's own
  });

  it("never lets go of a policy a later batch or a checkpoint needs", () => {
    for (const level of [0, 1, 2, 4]) {
      const schedule = new OffPolicySchedule(level);
      for (let steps = 0; steps < 12; steps++) {
        const oldest = schedule.oldestNeeded(steps);
        for (let b = steps; b < steps + 20; b++) expect(schedule.policyOf(b)).toBeGreaterThanOrEqual(oldest);
        for (const policy of schedule.checkpointPolicies(steps))
          expect(policy).toBeGreaterThanOrEqual(oldest);
        // and lets go of every older one: the oldest batch not trained yet needs this very policy
        expect(schedule.policyOf(steps)).toBe(oldest);
      }
    }
  });

  it("refuses a level that is not a whole number ≥ 0", () => {
    expect(() => new OffPolicySchedule(-1)).toThrow(/max_async_level must be a whole number ≥ 0, not -1/);
    expect(() => new OffPolicySchedule(1.5)).toThrow(RangeError);
  });
});
