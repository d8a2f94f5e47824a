// `vf eval reverse-text` end to end: the real binary, a scripted model on loopback, the package found
// by its bare name. Replaying the references scores 1, an untagged reply 0, and copying the passage
// unreversed into the tags something in between.
import { fileURLToPath } from "node:url";
import { byPrompt, fixedReply, lastUserText, type ReplyFn, referenceReplies } from "@vf-rl/core/testing";
import { evalScripted } from "@vf-rl/test-support";
import { describe, expect, it } from "vitest";
import { loadEnvironment } from "./index.ts";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

/** Answers every turn of every eval row with its reference completion. */
async function referenceModel(): Promise<ReplyFn> {
  return referenceReplies(await loadEnvironment({}));
}

async function evalWith(reply: ReplyFn) {
  const result = await evalScripted("reverse-text", { server: { reply }, cwd: packageDir });
  expect(result.stderr).not.toMatch(/^error:/m);
  expect(result.code).toBe(0);
  return result;
}

describe("vf eval reverse-text", () => {
  it("gives a model that writes the references the top reward, with the package's defaults", async () => {
    const { summary, requests } = await evalWith(await referenceModel());
    expect(summary).toMatchObject({ env_id: "reverse-text", num_examples: 5, rollouts_per_example: 3 });
    expect(summary.avg_reward).toBe(1);
    expect(summary.avg_metrics).toMatchObject({ lcs_reward: 1, format: 1 });
    expect(requests).toHaveLength(15);
    expect(requests[0]!.max_tokens).toBe(128);
  });

  it("gives an untagged reply nothing", async () => {
    const { summary } = await evalWith(fixedReply("I cannot do that."));
    expect(summary.avg_reward).toBe(0);
    expect(summary.avg_metrics.lcs_reward).toBe(0);
    expect(summary.avg_metrics.format).toBeCloseTo(0.2);
  });

  it("gives the passage copied unreversed part of the reward", async () => {
    const { summary } = await evalWith(
      byPrompt((messages) => `<reversed_text>\n${lastUserText(messages)}\n</reversed_text>`),
    );
    expect(summary.avg_reward).toBeGreaterThan(0.05);
    expect(summary.avg_reward).toBeLessThan(0.6);
  });
});
