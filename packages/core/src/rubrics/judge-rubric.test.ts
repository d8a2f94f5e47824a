import { afterEach, describe, expect, it } from "vitest";
import { OpenAIModelClient } from "../client/openai-model-client.ts";
import { createState, type RolloutState } from "../rollout/rollout-state.ts";
import { lastUserText, type ScriptedServer, startScriptedServer } from "../testing/index.ts";
import { DEFAULT_JUDGE_PROMPT, JudgeRubric } from "./judge-rubric.ts";

function rollout(answer: string, reply: string): RolloutState {
  const state = createState<Record<string, unknown>>(
    {
      exampleId: 0,
      rolloutIndex: 0,
      prompt: [{ role: "user", content: "Which planet is known as the red planet?" }],
      answer,
      info: {},
      task: "default",
    },
    { model: "m", sampling: {}, toolDefs: [], signal: new AbortController().signal, data: {} },
  );
  state.completion = [{ role: "assistant", content: reply }];
  return state;
}

let judge: ScriptedServer | undefined;
afterEach(async () => {
  await judge?.close();
  judge = undefined;
});

describe("JudgeRubric", () => {
  it("asks the judge once per rollout, caches the answer per rollout, and scores from it", async () => {
    judge = await startScriptedServer({
      reply: (request) => (/Answer to grade:\nMars/.test(lastUserText(request.messages)) ? "yes" : "no"),
    });
    const rubric = new JudgeRubric({
      client: new OpenAIModelClient({ baseUrl: judge.url, apiKey: "EMPTY" }),
      model: "judge",
    });
    rubric
      .addReward(async (ctx) => ((await rubric.judge(ctx)) === "yes" ? 1 : 0), { name: "judge_reward" })
      .addMetric(async (ctx) => (await rubric.judge(ctx)).length, { name: "judge_length" });
    const right = rollout("Mars", "Mars");
    const wrong = rollout("Mars", "Venus");
    await rubric.scoreGroup([right, wrong]);
    expect([right.reward, wrong.reward]).toEqual([1, 0]);
    expect(judge.requests).toHaveLength(2);
    expect(judge.requests[0]).toMatchObject({ model: "judge", temperature: 0 });
    expect(lastUserText(judge.requests[0]!.messages)).toContain("Which planet is known as the red planet?");
    expect(Object.values(rubric.judgeResponses(right))).toEqual(["yes"]);
    expect(DEFAULT_JUDGE_PROMPT).toContain("{response}");
  });

  it("scores 0 and records the error when the judge is down", async () => {
    judge = await startScriptedServer({
      reply: () => ({ type: "error", status: 503, message: "judge overloaded" }),
    });
    const rubric = new JudgeRubric({
      client: new OpenAIModelClient({ baseUrl: judge.url, apiKey: "EMPTY", maxRetries: 0 }),
      model: "judge",
    });
    rubric.addReward(async (ctx) => ((await rubric.judge(ctx)) === "yes" ? 1 : 0), { name: "judge_reward" });
    const state = rollout("Mars", "Mars");
    await rubric.scoreRollout(state);
    expect(state.reward).toBe(0);
    expect(state.scoringErrors).toEqual([
      { function: "judge_reward", error: expect.objectContaining({ error: "ModelHttpError" }) },
    ]);
  });
});
