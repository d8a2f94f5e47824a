import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { OpenAIModelClient } from "../client/openai-model-client.ts";
import { Dataset } from "../datasets/index.ts";
import { SingleTurnEnv } from "../envs/single-turn-env.ts";
import { startScriptedServer } from "../testing/index.ts";
import { echoLastUser } from "../testing/scripted-reply.ts";
import { generate } from "./generate.ts";

describe("a run's cancel signal", () => {
  it("is let go when generate returns, so one signal can serve any number of runs (a training loop)", async () => {
    const server = await startScriptedServer({ reply: echoLastUser });
    const client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY", maxRetries: 0 });
    try {
      const env = new SingleTurnEnv({ dataset: Dataset.fromRows([{ question: "hi", answer: "hi" }]) });
      const { inputs } = await env.inputs({ split: "train", rolloutsPerExample: 2 });
      const controller = new AbortController();
      for (let run = 0; run < 12; run++) {
        await generate(env, inputs, { clients: client, model: "scripted", signal: controller.signal });
      }
      expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
