// A recorded evaluation, replayed: `vf eval reverse-text` answered from the model calls recorded in
// .vf-cache/ (a scripted model that reverses one passage, reverses another's word order and leaves
// a third untagged), with nothing listening where the model was. The scores are pinned, so
// a change to the rubric that changes them fails here, and a change to the prompts fails the replay
// with a line naming the request that is no longer recorded.
//
// Re-record after a deliberate change with `VF_RECORD=1 npx vitest run src/recorded-eval.test.ts`
// (the scripted model is started, every call made again and stored over the old), then update the
// pinned scores below.
import { fileURLToPath } from "node:url";
import { byPrompt, lastUserText, type ReplyFn, startScriptedServer } from "@vf-rl/core/testing";
import { runVf } from "@vf-rl/test-support";
import { describe, expect, it } from "vitest";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const recorded = fileURLToPath(new URL("../.vf-cache", import.meta.url));
/** Where nothing listens: the replay must not need a model. */
const NO_MODEL = "http://127.0.0.1:9/v1";

/** By call: the passage reversed, its words in reverse order, or no tags at all. */
function mixedModel(): ReplyFn {
  let calls = 0;
  return byPrompt((messages) => {
    const passage = lastUserText(messages);
    switch (calls++ % 3) {
      case 0:
        return `<reversed_text>\n${[...passage].reverse().join("")}\n</reversed_text>`;
      case 1:
        return `<reversed_text>\n${passage.split(" ").reverse().join(" ")}\n</reversed_text>`;
      default:
        return "I would rather not.";
    }
  });
}

/** `vf eval reverse-text` with the package's defaults (5 examples x 3 rollouts) through the cache. */
async function evalRecorded(mode: "replay" | "refresh", url: string) {
  const args = ["eval", "reverse-text", "-m", "scripted-mixed", "-b", url, "-c", "1"];
  const run = await runVf([...args, "--cache", recorded, "--cache-mode", mode, "--json"], {
    cwd: packageDir,
  });
  expect(run.stderr).not.toMatch(/^error:/m);
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout);
}

describe("the recorded evaluation of reverse-text", () => {
  it.runIf(process.env.VF_RECORD)("is recorded again against the scripted model", async () => {
    const model = await startScriptedServer({ reply: mixedModel() });
    try {
      await evalRecorded("refresh", model.url);
    } finally {
      await model.close();
    }
  });

  it("replays with no model and scores what it scored when recorded", async () => {
    const summary = await evalRecorded("replay", NO_MODEL);
    expect(summary).toMatchObject({ env_id: "reverse-text", num_examples: 5, rollouts_per_example: 3 });
    expect(summary.avg_error).toBe(0);
    expect(summary.avg_reward).toBeCloseTo(PINNED.reward, 6);
    expect(summary.avg_metrics.lcs_reward).toBeCloseTo(PINNED.lcs_reward, 6);
    expect(summary.avg_metrics.format).toBeCloseTo(PINNED.format, 6);
  });
});

/** The scores of the recording (update them when the rubric changes on purpose). */
const PINNED = { reward: 0.469514, lcs_reward: 0.469514, format: 0.733333 };
