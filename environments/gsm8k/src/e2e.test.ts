// `vf eval gsm8k` end to end: the real binary, a scripted model on loopback, the package found by its
// bare name. A model that replays the reference solutions scores 1; one that never answers scores 0.
import { fileURLToPath } from "node:url";
import { fixedReply, type ReplyFn, referenceReplies } from "@vf-rl/core/testing";
import { evalScripted } from "@vf-rl/test-support";
import { describe, expect, it } from "vitest";
import { loadEnvironment } from "./index.ts";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

/** Answers every turn of every eval row with its reference completion. */
async function referenceModel(): Promise<ReplyFn> {
  return referenceReplies(await loadEnvironment({}));
}

async function evalWith(reply: ReplyFn) {
  const result = await evalScripted("gsm8k", {
    server: { reply },
    cwd: packageDir,
    flags: ["-n", "6", "-r", "2"],
  });
  expect(result.stderr).not.toMatch(/^error:/m);
  expect(result.code).toBe(0);
  return result;
}

describe("vf eval gsm8k", () => {
  it("gives a model that writes the reference solutions the top reward", async () => {
    const { summary, requests } = await evalWith(await referenceModel());
    expect(summary).toMatchObject({ env_id: "gsm8k", num_examples: 6, rollouts_per_example: 2 });
    expect(summary.avg_reward).toBe(1);
    expect(summary.avg_metrics).toMatchObject({ correct_answer: 1, boxed_answer: 1 });
    expect(requests).toHaveLength(12);
    expect(requests[0]!.max_tokens).toBe(1024);
  });

  it("gives a model that never answers nothing", async () => {
    const { summary } = await evalWith(fixedReply("I cannot solve this."));
    expect(summary.avg_reward).toBe(0);
    expect(summary.avg_metrics).toMatchObject({ correct_answer: 0, boxed_answer: 0 });
  });
});
