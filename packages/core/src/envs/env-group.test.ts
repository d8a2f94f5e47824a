import { afterEach, describe, expect, it } from "vitest";
import { OpenAIModelClient } from "../client/openai-model-client.ts";
import { Dataset } from "../datasets/index.ts";
import { AuthoringError, GroupScoringRequiredError, UserError } from "../errors.ts";
import { generate } from "../generate/generate.ts";
import { lastAssistantText } from "../messages/message.ts";
import { Rubric } from "../rubrics/rubric.ts";
import { lastUserText, type ScriptedServer, startScriptedServer } from "../testing/index.ts";
import { EnvGroup } from "./env-group.ts";
import { SingleTurnEnv } from "./single-turn-env.ts";

const math = new SingleTurnEnv({
  dataset: Dataset.fromRows([
    { question: "1+1", answer: "2" },
    { question: "2+2", answer: "4" },
  ]),
  systemPrompt: "Answer with a number.",
  rubric: new Rubric().addReward(({ completion, answer }) => lastAssistantText(completion) === answer, {
    name: "correct",
  }),
});
const shout = new SingleTurnEnv({
  dataset: Dataset.fromRows([{ question: "hello", answer: "HELLO" }]),
  rubric: new Rubric()
    .addReward(({ completion }) => (lastAssistantText(completion) === "HELLO" ? 1 : 0), { name: "loud" })
    .addMetric(({ completion }) => lastAssistantText(completion).length, { name: "length" }),
});

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("EnvGroup", () => {
  it("concatenates datasets with env ids, routes rollouts, and unites reward names with 0 for missing ones", async () => {
    server = await startScriptedServer({
      reply: (request) => {
        const q = lastUserText(request.messages);
        return q === "hello" ? "HELLO" : String(q.split("+").reduce((a, b) => a + Number(b), 0));
      },
    });
    const client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY" });
    const group = new EnvGroup({ envs: [math, shout], names: ["math", "shout"] });
    const { inputs } = await group.inputs({ split: "eval", rolloutsPerExample: 2 });
    expect(inputs.map((i) => [i.exampleId, i.info.env_id])).toEqual([
      [0, "math"],
      [0, "math"],
      [1, "math"],
      [1, "math"],
      [2, "shout"],
      [2, "shout"],
    ]);
    expect(inputs[0]!.prompt[0]).toEqual({ role: "system", content: "Answer with a number." });
    const { records } = await generate(group, inputs, { clients: client, model: "scripted" });
    expect(records.map((r) => r.reward)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(records[0]!.metrics).toMatchObject({ correct: 1, loud: 0, length: 0 });
    expect(records[5]!.metrics).toMatchObject({ correct: 0, loud: 1, length: 5 });
  });

  it("needs unique names, one per environment", () => {
    expect(() => new EnvGroup({ envs: [math, shout], names: ["a", "a"] })).toThrow(/unique/);
    expect(() => new EnvGroup({ envs: [math, shout], names: ["a"] })).toThrow(/2 environments but 1 names/);
    // An author's mistake: the CLI prints the message, not "an internal error of vf".
    expect(() => new EnvGroup({ envs: [math, shout], names: ["a", "a"] })).toThrow(AuthoringError);
    expect(() => new EnvGroup({ envs: [math, shout], names: ["a"] })).toThrow(UserError);
  });

  it("has the rubric of its members: their names, their group functions, and each rollout scored by its own", async () => {
    // A member that ranks the rollouts of an example against each other: only a whole group can score it.
    const ranked = new SingleTurnEnv({
      dataset: Dataset.fromRows([{ question: "pick", answer: "" }]),
      rubric: new Rubric().addGroupReward(
        (group) => group.map((ctx, i) => (i === 0 && lastAssistantText(ctx.completion) !== "" ? 1 : 0)),
        { name: "first" },
      ),
    });
    const plain = new EnvGroup({ envs: [math, shout], names: ["math", "shout"] });
    expect(plain.rubric.names()).toEqual(["correct", "loud", "length"]);
    expect(plain.rubric.requiresGroup()).toBe(false);
    const group = new EnvGroup({ envs: [math, ranked], names: ["math", "ranked"] });
    expect(group.rubric.names()).toEqual(["correct", "first"]);
    expect(group.rubric.requiresGroup()).toBe(true);

    server = await startScriptedServer({ reply: () => "4" });
    const client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY" });
    const { inputs } = await group.inputs({ split: "eval", rolloutsPerExample: 2 });
    // Scored one by one, the ranked member could not rank: refused before any rollout, as for the member alone.
    await expect(
      generate(group, inputs, { clients: client, model: "scripted", independentScoring: true }),
    ).rejects.toThrow(GroupScoringRequiredError);
    expect(server.requests).toHaveLength(0);
    const { records } = await generate(group, inputs, { clients: client, model: "scripted" });
    const rankedRecords = records.filter((r) => r.info.env_id === "ranked");
    expect(rankedRecords.map((r) => r.metrics.first)).toEqual([1, 0]);
    expect(records.find((r) => r.info.env_id === "math" && r.answer === "4")?.metrics).toMatchObject({
      correct: 1,
      first: 0,
    });
  });
});
