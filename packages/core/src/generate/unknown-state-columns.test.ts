import { afterEach, describe, expect, it } from "vitest";
import { OpenAIModelClient } from "../client/openai-model-client.ts";
import { Dataset } from "../datasets/index.ts";
import { SingleTurnEnv } from "../envs/single-turn-env.ts";
import { Rubric } from "../rubrics/rubric.ts";
import { lastUserText, type ScriptedServer, startScriptedServer } from "../testing/index.ts";
import { evaluate } from "./evaluate.ts";

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const env = new SingleTurnEnv({
  dataset: Dataset.fromRows([{ question: "a" }, { question: "b" }, { question: "c" }]),
  rubric: new Rubric().addReward(() => 1, { name: "one" }),
});

describe("state columns", () => {
  it("warn, once and while the run goes on, about a name no rollout's state has", async () => {
    server = await startScriptedServer({ reply: (request) => lastUserText(request.messages) });
    const live: string[] = [];
    const result = await evaluate(env, {
      clients: new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY" }),
      model: "scripted",
      rolloutsPerExample: 2,
      maxConcurrent: 1,
      stateColumns: ["stopCondition", "stop_conditon"],
      onWarning: (warning) => live.push(warning),
    });
    const expected = `no rollout's state has "stop_conditon": it is saved empty; check the state column names`;
    expect(live).toEqual([expected]);
    expect(result.warnings).toContain(expected);
    expect(result.records[0]!.state).toHaveProperty("stopCondition");
  });

  it("stay quiet when every name is found", async () => {
    server = await startScriptedServer({ reply: (request) => lastUserText(request.messages) });
    const result = await evaluate(env, {
      clients: new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY" }),
      model: "scripted",
      stateColumns: ["isCompleted"],
    });
    expect(result.warnings.filter((w) => w.includes("state"))).toEqual([]);
  });
});
