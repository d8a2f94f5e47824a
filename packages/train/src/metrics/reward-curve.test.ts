// The reward curve of a run of several environments draws each one's training reward, from the
// per_env of its steps, or from env_reward in runs written before per_env existed.
import { describe, expect, it } from "vitest";
import { MetricsRow, type TrainRow } from "./metrics-file.ts";
import { rewardCurveHtml, rewardCurveSvg } from "./reward-curve.ts";

const texts = (svg: string): string[] => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!);

/** A train row as runs before per_env wrote it (metrics.jsonl's line, parsed as vf plot parses it). */
function oldRow(step: number, env_reward: Record<string, number>): TrainRow {
  const line = {
    kind: "train",
    step,
    time: 0,
    reward_mean: 0.5,
    reward_std: 0.1,
    reward_all_mean: 0.5,
    env_reward,
    groups: { drawn: 4, kept: 4, too_easy: 0, too_hard: 0, no_spread: 0, errored: 0, surplus: 0 },
    rounds: 1,
    rollouts: 16,
    errors: 0,
    tokens: { prompt: 1, completion: 1, trained: 1 },
    completion_len_mean: 1,
    completion_len_max: 1,
    turns_mean: 1,
    truncated_share: 0,
    loss: 0,
    entropy: 0,
    mismatch_kl: 0,
    masked_share: 0,
    grad_norm: 0,
    learning_rate: 0,
    off_policy_mean: 0,
    off_policy_max: 0,
    time_ms: {
      step: 1,
      wait_for_batch: 0,
      generate: 0,
      update_weights: 0,
      forward_backward: 0,
      optim: 0,
      save_weights: 0,
      checkpoint: 0,
    },
  };
  return MetricsRow.parse(JSON.parse(JSON.stringify(line))) as TrainRow;
}

describe("the reward curve of a run of several environments", () => {
  it("draws a training line per environment, in its evaluations' colour", () => {
    const rows = [1, 2].map((step) => ({
      ...oldRow(step, { a: 0.4, b: 0.6 }),
      per_env: {
        a: { share: 0.75, drawn: 3, kept: 3, reward: 0.2 * step },
        b: { share: 0.25, drawn: 1, kept: 1, reward: 0.3 * step },
      },
    }));
    const evalB = { kind: "eval" as const, step: 2, time: 0, env: "b", reward_mean: 0.5, reward_std: 0 };
    const svg = rewardCurveSvg(
      [...rows, { ...evalB, ci95_low: 0.4, ci95_high: 0.6, rollouts: 4, time_ms: 1 }],
      "mix",
    );
    expect(texts(svg)).toEqual(expect.arrayContaining(["train a", "train b", "eval b (95% CI)"]));
    // b's training line (dashed) and its evaluation dot share b's colour
    expect(svg).toMatch(/stroke="#2ca02c" stroke-width="1.5" stroke-dasharray="6 3"/);
    expect(svg).toContain('fill="#2ca02c"><title>b @ step 2');
    expect(rewardCurveHtml(rows, svg, "mix")).toContain("last train reward 0.500 (a 0.400, b 0.600)");
  });

  it("reads runs written before per_env (their env_reward), and draws no such line for one environment", () => {
    const old = rewardCurveSvg([oldRow(1, { a: 0.4, b: 0.6 }), oldRow(2, { a: 0.5, b: 0.7 })], "old");
    expect(texts(old)).toEqual(expect.arrayContaining(["train reward (±1 std)", "train a", "train b"]));
    const single = rewardCurveSvg([oldRow(1, { a: 0.4 }), oldRow(2, { a: 0.5 })], "one");
    expect(texts(single)).not.toContain("train a");
  });
});
