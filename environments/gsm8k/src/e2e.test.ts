// `vf eval gsm8k` end to end: the real binary, a scripted model on loopback, the package found by its
// bare name. A model that replays the reference solutions scores 1; one that never answers scores 0.
import { fileURLToPath } from "node:url";
import { runVf } from "@vf/cli/testing";
import { fixedReply, type ReplyFn, referenceReplies, startScriptedServer } from "@vf/core/testing";
import { describe, expect, it } from "vitest";
import { loadEnvironment } from "./index.ts";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

/** Answers every turn of every eval row with its reference completion. */
async function referenceModel(): Promise<ReplyFn> {
  return referenceReplies(await loadEnvironment({}));
}

async function evalWith(reply: ReplyFn) {
  const server = await startScriptedServer({ reply });
  try {
    const result = await runVf(
      ["eval", "gsm8k", "-m", "scripted", "-b", server.url, "-n", "6", "-r", "2", "--json"],
      { cwd: packageDir },
    );
    expect(result.stderr).not.toMatch(/^error:/m);
    expect(result.code).toBe(0);
    return { summary: JSON.parse(result.stdout), requests: server.requests };
  } finally {
    await server.close();
  }
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
