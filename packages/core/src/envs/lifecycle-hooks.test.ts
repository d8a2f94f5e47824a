import { afterEach, describe, expect, it } from "vitest";
import { OpenAIModelClient } from "../client/openai-model-client.ts";
import { Dataset } from "../datasets/index.ts";
import type { RolloutInput } from "../rollout/rollout-state.ts";
import { type ScriptedServer, startScriptedServer } from "../testing/index.ts";
import { SingleTurnEnv } from "./single-turn-env.ts";

const input: RolloutInput = {
  exampleId: 0,
  rolloutIndex: 0,
  prompt: [{ role: "user", content: "hi" }],
  answer: "",
  info: {},
  task: "default",
};

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("cleanup and teardown hooks", () => {
  it("run by priority, then name, whatever order they were added in", async () => {
    server = await startScriptedServer({ reply: () => "ok" });
    const client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY" });
    const env = new SingleTurnEnv({ dataset: Dataset.fromRows([{ question: "hi" }]) });
    const order: string[] = [];
    env.addCleanup("b_low", () => void order.push("b_low"), -1);
    env.addCleanup("z_high", () => void order.push("z_high"), 10);
    env.addCleanup("a_low", () => void order.push("a_low"), -1);
    env.addTeardown("second", () => void order.push("teardown second"), 0);
    env.addTeardown("first", () => void order.push("teardown first"), 5);
    await env.rollout(input, { client, model: "m" });
    await env.teardown();
    expect(order).toEqual(["z_high", "a_low", "b_low", "teardown first", "teardown second"]);
  });

  it("records a failing cleanup on the rollout and still runs the others", async () => {
    server = await startScriptedServer({ reply: () => "ok" });
    const client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY" });
    const env = new SingleTurnEnv({ dataset: Dataset.fromRows([{ question: "hi" }]) });
    let ran = false;
    env.addCleanup(
      "broken",
      () => {
        throw new Error("could not remove the sandbox");
      },
      1,
    );
    env.addCleanup("after", () => {
      ran = true;
    });
    const state = await env.rollout(input, { client, model: "m" });
    expect(ran).toBe(true);
    expect(state.error).toMatchObject({ message: "could not remove the sandbox" });
  });

  it("teardown runs every hook and reports all failures together", async () => {
    const env = new SingleTurnEnv({ dataset: Dataset.fromRows([{ question: "hi" }]) });
    let ran = false;
    env.addTeardown("a", () => {
      throw new Error("a failed");
    });
    env.addTeardown("b", () => {
      ran = true;
    });
    await expect(env.teardown()).rejects.toThrow(/environment teardown failed/);
    expect(ran).toBe(true);
  });
});
