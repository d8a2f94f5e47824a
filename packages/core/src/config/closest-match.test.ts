import { describe, expect, it } from "vitest";
import { closestMatch, editDistance } from "./closest-match.ts";

describe("closestMatch", () => {
  it("suggests the key a typo was meant to be", () => {
    const keys = ["batch_size", "rollouts_per_example", "max_steps", "learning_rate"];
    expect(closestMatch("batch_sise", keys)).toBe("batch_size");
    expect(closestMatch("rollout_per_example", keys)).toBe("rollouts_per_example");
    expect(closestMatch("Max_Steps", keys)).toBe("max_steps");
  });

  it("suggests nothing when no key is close", () => {
    expect(closestMatch("temperature", ["batch_size", "max_steps"])).toBeUndefined();
  });

  it("counts edits", () => {
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
  });
});
