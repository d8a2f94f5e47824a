// `vf eval gsm8k-calculator` end to end: the real binary, a scripted model on loopback that calls the
// tool, the package found by its bare name. Replaying the reference conversations (calculator calls,
// then the worked solution) scores 1; a model that never answers scores 0.
import { fileURLToPath } from "node:url";
import { fixedReply, type ReplyFn, referenceReplies } from "@vf-rl/core/testing";
import { evalScripted } from "@vf-rl/test-support";
import { describe, expect, it } from "vitest";
import { loadEnvironment } from "./index.ts";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

/** Answers every turn of every eval row with its reference completion. */
async function referenceModel(): Promise<ReplyFn> {
  return referenceReplies(await loadEnvironment({ numEval: 10 }));
}

async function evalWith(reply: ReplyFn) {
  const result = await evalScripted("gsm8k-calculator", {
    server: { reply },
    cwd: packageDir,
    flags: ["-n", "5", "-r", "2"],
  });
  expect(result.stderr).not.toMatch(/^error:/m);
  expect(result.code).toBe(0);
  return result;
}

describe("vf eval gsm8k-calculator", () => {
  it("gives a model that calls the calculator and writes the reference solutions the top reward", async () => {
    const { summary, requests } = await evalWith(await referenceModel());
    expect(summary).toMatchObject({ env_id: "gsm8k-calculator", num_examples: 5, rollouts_per_example: 2 });
    expect(summary.avg_reward).toBe(1);
    expect(summary.avg_metrics).toMatchObject({ correct_answer: 1, calculate_errors: 0, num_turns: 2 });
    expect(summary.avg_metrics.calculate_calls).toBeGreaterThan(1);
    expect(summary.avg_metrics.total_tool_calls).toBe(summary.avg_metrics.calculate_calls);
    // Two model turns per rollout: the calls, then the answer.
    expect(requests).toHaveLength(20);
    expect(requests[0]!.tools?.[0]?.function.name).toBe("calculate");
  });

  it("gives a model that never answers nothing", async () => {
    const { summary } = await evalWith(fixedReply("I cannot solve this."));
    expect(summary.avg_reward).toBe(0);
    expect(summary.avg_metrics).toMatchObject({ correct_answer: 0, calculate_calls: 0, num_turns: 1 });
  });
});
