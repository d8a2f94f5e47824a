// `vf eval tool-arithmetic` end to end: the real binary, a scripted model on loopback, the package
// found by its bare name. A model that calls the calculator as the references do scores 1; one that
// answers with an unboxed guess scores 0.
import { fileURLToPath } from "node:url";
import { fixedReply, type ReplyFn, referenceReplies } from "@vf-rl/core/testing";
import { evalScripted } from "@vf-rl/test-support";
import { describe, expect, it } from "vitest";
import { loadEnvironment } from "./index.ts";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

async function evalWith(reply: ReplyFn) {
  const result = await evalScripted("tool-arithmetic", { server: { reply }, cwd: packageDir });
  expect(result.stderr).not.toMatch(/^error:/m);
  expect(result.code).toBe(0);
  return result;
}

describe("vf eval tool-arithmetic", () => {
  it("gives a model that calls the calculator and boxes its result the top reward, with the package's defaults", async () => {
    const { summary, requests } = await evalWith(await referenceReplies(await loadEnvironment({})));
    expect(summary).toMatchObject({ env_id: "tool-arithmetic", num_examples: 20, rollouts_per_example: 3 });
    expect(summary.avg_reward).toBe(1);
    expect(summary.avg_metrics).toMatchObject({ correct_answer: 1, calculate_calls: 1, num_turns: 2 });
    // Two model turns per rollout: the call, then the answer.
    expect(requests).toHaveLength(120);
    expect(requests[0]!.max_tokens).toBe(128);
    expect(requests[0]!.tools?.[0]?.function.name).toBe("calculate");
  });

  it("gives a guess without a box nothing", async () => {
    const { summary } = await evalWith(fixedReply("About 20000."));
    expect(summary.avg_reward).toBe(0);
    expect(summary.avg_metrics).toMatchObject({ correct_answer: 0, calculate_calls: 0, num_turns: 1 });
  });
});
