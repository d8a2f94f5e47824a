import { describe, expect, it } from "vitest";
import { Dataset } from "../datasets/index.ts";
import { SingleTurnEnv } from "../envs/single-turn-env.ts";
import { lastAssistantText } from "../messages/message.ts";
import { Rubric } from "../rubrics/rubric.ts";
import { evaluateScripted } from "./evaluate-scripted.ts";
import { referenceReplies } from "./reference-replies.ts";
import { lastUserText } from "./scripted-reply.ts";

const env = new SingleTurnEnv({
  dataset: Dataset.fromRows([
    { question: "2+2", answer: "4" },
    { question: "3+3", answer: "6" },
  ]),
  rubric: new Rubric().addReward(({ completion, answer }) => lastAssistantText(completion) === answer, {
    name: "exact",
  }),
  referenceCompletion: (input) => [{ role: "assistant", content: input.answer }],
});

describe("evaluateScripted", () => {
  it("evaluates with the reference answers as the model's", async () => {
    const result = await evaluateScripted(env, { reply: await referenceReplies(env), rolloutsPerExample: 2 });
    expect(result.records).toHaveLength(4);
    expect(result.metadata.avg_reward).toBe(1);
    expect(result.requests).toHaveLength(4);
    expect(result.metadata.model).toBe("scripted");
  });

  it("takes a fixed text or a function of the request", async () => {
    expect((await evaluateScripted(env, { reply: "5" })).metadata.avg_reward).toBe(0);
    const half = await evaluateScripted(env, {
      reply: (request) => (lastUserText(request.messages) === "2+2" ? "4" : "?"),
    });
    expect(half.records.map((r) => r.reward)).toEqual([1, 0]);
  });
});
