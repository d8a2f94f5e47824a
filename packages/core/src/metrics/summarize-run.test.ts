import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { RolloutRecord } from "../records/rollout-record.ts";
import { readRun } from "../results/read-run.ts";
import { summarizeRun } from "./summarize-run.ts";

const mathPython = fileURLToPath(
  new URL("../results/fixtures/verifiers-outputs/evals/math-python--gpt-4.1-mini/578769a7", import.meta.url),
);

function row(exampleId: number, rolloutIndex: number, reward: number, extra: Record<string, unknown> = {}) {
  return RolloutRecord.parse({
    example_id: exampleId,
    rollout_index: rolloutIndex,
    prompt: [{ role: "user", content: "q" }],
    completion: [{ role: "assistant", content: "a" }],
    reward,
    ...extra,
  });
}

const timing = (totalMs: number) => ({
  start_time: 0,
  setup_ms: 1,
  generation_ms: totalMs - 2,
  model_ms: totalMs - 3,
  env_ms: 1,
  scoring_ms: 1,
  total_ms: totalMs,
});

describe("summarizeRun", () => {
  it("summarises a verifiers run the way its CLI printed it: reward, r-lines, pass@k", async () => {
    const { records, metadata } = await readRun(mathPython);
    const summary = summarizeRun(records, { rolloutsPerExample: metadata.rollouts_per_example });
    expect(summary.rows).toBe(15);
    expect(summary.examples).toBe(5);
    expect(summary.reward.mean).toBeCloseTo(14 / 15);
    expect(summary.reward.std).toBeCloseTo(Math.sqrt(14 / 15 - (14 / 15) ** 2));
    expect(summary.rewardsByRollout).toEqual([
      [1, 1, 1, 1, 1],
      [1, 1, 1, 1, 1],
      [1, 0, 1, 1, 1],
    ]);
    const agg = summary.aggregates;
    expect(agg.avg_reward).toBeCloseTo(metadata.avg_reward);
    expect(agg.avg_metrics.correct_answer_reward_func).toBeCloseTo(
      metadata.avg_metrics.correct_answer_reward_func!,
    );
    expect(agg.pass_at_k["1"]).toBeCloseTo(14 / 15);
    expect(agg.pass_at_k["2"]).toBeCloseTo(1);
    expect(agg.pass_all_k["2"]).toBeCloseTo((4 + 1 / 3) / 5);
    expect(agg.pass_threshold).toBe(0.5);
    expect(summary.metricsByRollout.python_calls).toHaveLength(3);
    expect(summary.timing?.generation_ms).toMatchObject({ min: 10753.0159950256, max: 34932.2490692139 });
    expect(agg.usage).toBeUndefined();
  });

  it("counts errors by class, raising scoring functions by name, stop conditions by name", () => {
    const failure = (error: string) => ({ error: { error, message: "boom" } });
    const records = [
      row(0, 0, 1, { stop_condition: "no_tools_called" }),
      row(0, 1, 0, { ...failure("ModelHttpError"), stop_condition: "has_error" }),
      row(1, 0, 0, { ...failure("ModelHttpError"), stop_condition: "has_error" }),
      row(1, 1, 0, {
        ...failure("ToolCallError"),
        scoring_errors: [
          { function: "judge", error: { error: "Error", message: "judge down" } },
          { function: "format", error: { error: "Error", message: "bad" } },
        ],
      }),
    ];
    const { aggregates } = summarizeRun(records, { rolloutsPerExample: 2 });
    expect(aggregates.avg_error).toBe(0.75);
    expect(aggregates.error_counts).toEqual({ ModelHttpError: 2, ToolCallError: 1 });
    expect(aggregates.scoring_error_counts).toEqual({ judge: 1, format: 1 });
    expect(aggregates.stop_conditions).toEqual({ no_tools_called: 1, has_error: 2 });
  });

  it("averages each metric over the rows that report it, and token usage per rollout", () => {
    const records = [
      row(0, 0, 1, {
        metrics: { accuracy: 1, f1: 0.8 },
        token_usage: { input_tokens: 100, output_tokens: 50 },
      }),
      row(1, 0, 0, { metrics: { accuracy: 0 } }),
      row(2, 0, 0, {
        metrics: { accuracy: 0, f1: 0.4 },
        token_usage: {
          input_tokens: 200,
          output_tokens: 100,
          final_input_tokens: 150,
          final_output_tokens: 60,
        },
      }),
    ];
    const summary = summarizeRun(records, { rolloutsPerExample: 1 });
    expect(summary.aggregates.avg_metrics.accuracy).toBeCloseTo(1 / 3);
    expect(summary.aggregates.avg_metrics.f1).toBeCloseTo(0.6);
    expect(summary.metrics.f1!.std).toBeCloseTo(0.2);
    expect(summary.aggregates.usage).toEqual({
      input_tokens: 150,
      output_tokens: 75,
      final_input_tokens: 150,
      final_output_tokens: 60,
    });
    expect(summary.aggregates.pass_at_k).toEqual({});
  });

  it("lays rewards out by rollout index in example order, whatever order rows finished in", () => {
    const records = [row(1, 1, 0.4), row(0, 0, 0.1), row(1, 0, 0.3), row(0, 1, 0.2), row(2, 0, 0.5)];
    const summary = summarizeRun(records, { rolloutsPerExample: 2 });
    expect(summary.rewardsByRollout).toEqual([
      [0.1, 0.3, 0.5],
      [0.2, 0.4],
    ]);
    // Example 2 is missing a rollout, so pass@k is over examples 0 and 1 only (all wrong at 0.5).
    expect(summary.aggregates.pass_at_k).toEqual({ "1": 0, "2": 0 });
  });

  it("reports truncation and timing ranges", () => {
    const records = [
      row(0, 0, 1, { is_truncated: true, timing: timing(100) }),
      row(1, 0, 1, { timing: timing(300) }),
    ];
    const summary = summarizeRun(records, { rolloutsPerExample: 1 });
    expect(summary.truncated).toEqual({ mean: 0.5, std: 0.5 });
    expect(summary.timing?.total_ms).toEqual({ min: 100, mean: 200, max: 300 });
    expect(summary.timing?.setup_ms).toEqual({ min: 1, mean: 1, max: 1 });
  });

  it("gives zeros, not NaN, for a run with no rows yet", () => {
    const summary = summarizeRun([], { rolloutsPerExample: 3 });
    expect(summary.aggregates).toMatchObject({ avg_reward: 0, avg_error: 0, avg_metrics: {}, pass_at_k: {} });
    expect(summary.reward).toEqual({ mean: 0, std: 0 });
    expect(summary.rewardsByRollout).toEqual([[], [], []]);
    expect(summary.timing).toBeNull();
  });
});
