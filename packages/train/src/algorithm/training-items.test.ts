import type { TrajectoryStep } from "@vf-rl/core";
import { describe, expect, it } from "vitest";
import { rolloutItems } from "./training-items.ts";

function turn(prompt_ids: number[], completion_ids: number[]): TrajectoryStep {
  return {
    finish_reason: "stop",
    is_truncated: false,
    tokens: { prompt_ids, completion_ids, completion_logprobs: completion_ids.map((id) => -id / 100) },
  };
}

describe("training items from a rollout's turns", () => {
  it("make one sequence of a single turn: the prompt is context, the completion is trained", () => {
    const built = rolloutItems([turn([1, 2, 3], [40, 50])], 0.25);
    expect(built).toEqual({
      ok: true,
      items_D: [
        {
          tokens: [1, 2, 3, 40, 50],
          mask: [0, 0, 0, 1, 1],
          samplerLogprobs: [0, 0, 0, -0.4, -0.5],
          advantages: [0, 0, 0, 0.25, 0.25],
        },
      ],
    });
  });

  it("join turns whose prompt extends the last prompt and completion; environment tokens are masked out", () => {
    // turn 2's prompt = turn 1's prompt + completion + the environment's reply (7, 8, 9)
    const built = rolloutItems([turn([1, 2], [40]), turn([1, 2, 40, 7, 8, 9], [60, 70])], -1);
    expect(built.ok && built.items_D).toEqual([
      {
        tokens: [1, 2, 40, 7, 8, 9, 60, 70],
        mask: [0, 0, 1, 0, 0, 0, 1, 1],
        samplerLogprobs: [0, 0, -0.4, 0, 0, 0, -0.6, -0.7],
        advantages: [0, 0, -1, 0, 0, 0, -1, -1],
      },
    ]);
  });

  it("start a new sequence where a turn's prompt breaks the prefix (e.g. a template that drops old reasoning)", () => {
    const built = rolloutItems(
      [turn([1, 2], [40, 41]), turn([1, 2, 40, 7], [60]), turn([1, 2, 40, 7, 60, 8], [70])],
      1,
    );
    expect(built.ok && built.items_D.map((item) => item.tokens)).toEqual([
      [1, 2, 40, 41],
      [1, 2, 40, 7, 60, 8, 70],
    ]);
    expect(built.ok && built.items_D[1]!.mask).toEqual([0, 0, 0, 0, 1, 0, 1]);
  });

  it("report rollouts whose turns carry no token ids or no logprobs, and skip empty completions", () => {
    expect(rolloutItems([{ finish_reason: "stop", is_truncated: false, tokens: null }], 1)).toEqual({
      ok: false,
      reason: "no_tokens",
    });
    const noLogprobs = turn([1], [5, 6]);
    noLogprobs.tokens!.completion_logprobs = [];
    expect(rolloutItems([noLogprobs], 1)).toEqual({ ok: false, reason: "no_logprobs" });
    expect(rolloutItems([turn([1, 2], [])], 1)).toEqual({ ok: false, reason: "empty" });
    expect(rolloutItems([], 1)).toEqual({ ok: false, reason: "empty" });
  });
});
