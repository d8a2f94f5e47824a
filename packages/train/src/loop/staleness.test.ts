import { RolloutRecord } from "@vf-rl/core/results";
import { describe, expect, it } from "vitest";
import { CarriedGroup, CarryBuffer } from "../rollouts/carry-buffer.ts";
import type { TrainGroup } from "../rollouts/collect-batch.ts";
import { OffPolicyBound } from "./staleness.ts";

/** A group of rollouts sampled by the given policy versions, one per rollout. */
function group(versions_G: number[], envIndex = 0): TrainGroup {
  return {
    envIndex,
    records_G: versions_G.map((_, g) =>
      RolloutRecord.parse({ example_id: 7, rollout_index: g, prompt: [], completion: [], reward: g / 4 }),
    ),
    advantages_G: versions_G.map((_, g) => g - 1.5),
    items_G_D: versions_G.map((v, g) => [
      { tokens: [1, 2, 3], mask: [0, 1, 1], samplerLogprobs: [0, -0.5, -1 - g], advantages: [0, v, v] },
    ]),
    versions_G,
  };
}

describe("the off-policy bound (max_off_policy_steps)", () => {
  it("lets a rollout train at step n if it was sampled by policy n − bound or newer", () => {
    const bound = new OffPolicyBound(2);
    expect(bound.isStale(3, 5)).toBe(false);
    expect(bound.isStale(2, 5)).toBe(true);
    expect(() => new OffPolicyBound(-1)).toThrow(/max_off_policy_steps must be a whole number ≥ 0/);
  });

  it("ages carried groups out whole, before the batch takes them, and keeps the rest in order", () => {
    const carry = new CarryBuffer();
    carry.put(group([1, 1, 1, 1]));
    carry.put(group([3, 3, 3, 3], 1));
    carry.put(group([2, 2, 2, 2]));
    expect(new OffPolicyBound(2).ageOut(carry, 4)).toEqual({ groups: 1, rollouts: 4 });
    expect(carry.take(5).map((g) => g.versions_G[0])).toEqual([3, 2]);
  });

  it("drops a batch's rollouts past the bound, and a group none of whose rollouts are young enough", () => {
    const batch = [group([5, 5, 5, 5]), group([5, 2, 5, 1]), group([1, 1, 1, 1])];
    const { groups_P, dropped } = new OffPolicyBound(2).sweep(batch, 5);
    expect(dropped).toEqual({ groups: 1, rollouts: 6 });
    expect(groups_P).toHaveLength(2);
    expect(groups_P[0]).toBe(batch[0]);
    const partial = groups_P[1]!;
    // rollouts 0 and 2 stay, each with its own record, advantage and items
    expect(partial.versions_G).toEqual([5, 5]);
    expect(partial.records_G.map((r) => r.rollout_index)).toEqual([0, 2]);
    expect(partial.advantages_G).toEqual([-1.5, 0.5]);
    expect(partial.items_G_D.map((items) => items[0]!.samplerLogprobs)).toEqual([
      [0, -0.5, -1],
      [0, -0.5, -3],
    ]);
  });

  it("carries groups through a checkpoint: saved as JSON, read back as they were", () => {
    const carry = new CarryBuffer();
    carry.put(group([4, 4, 4, 4], 1));
    const saved = JSON.parse(JSON.stringify(carry.state())) as unknown;
    const restored = new CarryBuffer(CarriedGroup.array().parse(saved));
    expect(restored.take(1)).toEqual(carry.take(1));
  });
});
