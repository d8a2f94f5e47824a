import { RolloutRecord, RunMetadata } from "@vf-rl/core/results";
import { describe, expect, it } from "vitest";
import { formatComparison, rewardInterval } from "./comparison-table.ts";

const rollout = (exampleId: number, reward: number, error = false) =>
  RolloutRecord.parse({
    example_id: exampleId,
    prompt: [{ role: "user", content: "q" }],
    completion: [{ role: "assistant", content: "a" }],
    reward,
    ...(error ? { error: { error: "ModelError", message: "HTTP 500" } } : {}),
  });

const metadata = (passAtK: Record<string, number>) =>
  RunMetadata.parse({
    env_id: "gsm8k",
    model: "scripted",
    num_examples: 2,
    rollouts_per_example: 2,
    sampling_args: {},
    env_args: {},
    avg_reward: 0,
    avg_metrics: {},
    pass_at_k: passAtK,
    usage: { input_tokens: 10, output_tokens: 42.4 },
  });

describe("rewardInterval", () => {
  it("treats each example's mean as one observation and uses Student's t", () => {
    // example means 1, 0.5, 0: mean 0.5, sd 0.5, t(2) = 4.303
    const records = [
      rollout(0, 1),
      rollout(0, 1),
      rollout(1, 1),
      rollout(1, 0),
      rollout(2, 0),
      rollout(2, 0),
    ];
    const { mean, halfWidth } = rewardInterval(records);
    expect(mean).toBeCloseTo(0.5);
    expect(halfWidth).toBeCloseTo((4.303 * 0.5) / Math.sqrt(3));
  });

  it("has no interval for a single example", () => {
    expect(rewardInterval([rollout(0, 1), rollout(0, 0)]).halfWidth).toBeNaN();
  });
});

describe("formatComparison", () => {
  it("lines up one row per evaluation: reward and interval, pass@1 and the largest k, tokens, errors", () => {
    const lines = formatComparison([
      {
        envId: "gsm8k",
        label: "temperature=0",
        metadata: metadata({ "1": 0.5, "2": 0.75 }),
        records: [rollout(0, 1), rollout(0, 0), rollout(1, 1), rollout(1, 0, true)],
      },
      {
        envId: "gsm8k",
        label: "temperature=0.7",
        metadata: metadata({ "1": 0.25, "2": 0.5 }),
        records: [rollout(0, 0), rollout(0, 0), rollout(1, 1), rollout(1, 0)],
      },
    ]);
    expect(lines[0]).toBe("--- Comparison ---");
    expect(lines[1]).toMatch(
      /^environment +setting +model +reward \(95% CI\) +pass@1 +pass@2 +tokens out +errors$/,
    );
    expect(lines[2]).toMatch(/^gsm8k +temperature=0 +scripted +0\.500 ± 0\.000 +0\.500 +0\.750 +42 +1\/4$/);
    expect(lines[3]).toMatch(
      /^gsm8k +temperature=0\.7 +scripted +0\.250 ± 3\.176 +0\.250 +0\.500 +42 +0\/4$/,
    );
    expect(lines[2]!.indexOf("scripted")).toBe(lines[1]!.indexOf("model"));
    expect(lines[3]!.indexOf("scripted")).toBe(lines[1]!.indexOf("model"));
  });
});
