// `vf eval alphabet-sort` end to end: the real binary, a scripted model on loopback, the package found
// by its bare name. Replaying the reference conversations scores 1; a model that never lists scores 0.
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
  const result = await evalScripted("alphabet-sort", { server: { reply }, cwd: packageDir });
  expect(result.stderr).not.toMatch(/^error:/m);
  expect(result.code).toBe(0);
  return result;
}

describe("vf eval alphabet-sort", () => {
  it("gives a model that replays the reference conversations the top reward", async () => {
    const { summary, requests } = await evalWith(await referenceModel());
    expect(summary).toMatchObject({ env_id: "alphabet-sort", num_examples: 5, rollouts_per_example: 3 });
    expect(summary.avg_reward).toBe(1);
    expect(summary.avg_metrics).toMatchObject({ sort_reward: 1, exact_turns: 1 });
    // 3 or 4 turns per conversation, one request each.
    expect(requests.length).toBeGreaterThanOrEqual(45);
    expect(requests.length).toBeLessThanOrEqual(60);
    expect(requests[0]!.max_tokens).toBe(256);
  });

  it("gives a model that never writes a tagged list nothing", async () => {
    const { summary } = await evalWith(fixedReply("Ada, Ben, Cleo"));
    expect(summary.avg_reward).toBe(0);
    expect(summary.avg_metrics).toMatchObject({ sort_reward: 0, exact_turns: 0 });
  });
});
