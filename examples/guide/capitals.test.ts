// The guide's "Testing an environment offline" (packages/core/README.md), run as it is shown.
import { evaluateScripted, referenceReplies } from "@vf-rl/core/testing";
import { expect, it } from "vitest";
import { loadEnvironment } from "./capitals.ts";

it("scores the environment's reference answers 1 and an unsure model 0", async () => {
  const env = await loadEnvironment({});
  // the model answers every row with the environment's referenceCompletion
  const perfect = await evaluateScripted(env, { reply: await referenceReplies(env) });
  expect(perfect.metadata.avg_reward).toBe(1);
  // or a fixed text, or a function of the request
  const wrong = await evaluateScripted(env, { reply: "I am not sure." });
  expect(wrong.metadata.avg_reward).toBe(0);
});

it("checks its args with the schema", async () => {
  await expect(loadEnvironment({ numEval: 0 })).rejects.toThrow(/numEval/);
});
