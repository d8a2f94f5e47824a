// Runs the environment end to end against a scripted OpenAI-compatible server on loopback.
import { evaluate, OpenAIModelClient } from "@vf-rl/core";
import { lastUserText, startScriptedServer } from "@vf-rl/core/testing";
import { describe, expect, it } from "vitest";
import { loadEnvironment } from "./index.ts";

const capitals: Record<string, string> = {
  France: "Paris",
  Japan: "Tokyo",
  Kenya: "Nairobi",
  Peru: "Lima",
  Canada: "Ottawa",
  Egypt: "Cairo",
  Norway: "Oslo",
  Chile: "Santiago",
  India: "New Delhi",
  Italy: "Rome",
};

async function scoreWith(answer: (country: string) => string) {
  const server = await startScriptedServer({
    reply: (request) => {
      const country = Object.keys(capitals).find((c) => lastUserText(request.messages).includes(c)) ?? "";
      return answer(country);
    },
  });
  try {
    const env = await loadEnvironment({ numEval: 4 });
    const client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY" });
    return await evaluate(env, { clients: client, model: "scripted", rolloutsPerExample: 2 });
  } finally {
    await server.close();
  }
}

describe("{{name}}", () => {
  it("gives a perfect, well-formatted answer the full reward", async () => {
    const result = await scoreWith((country) => `<answer>\n${capitals[country]}\n</answer>`);
    expect(result.records).toHaveLength(8);
    expect(result.metadata.avg_reward).toBeCloseTo(1.2);
  });

  it("gives a wrong, unformatted answer nothing", async () => {
    const result = await scoreWith(() => "I am not sure.");
    expect(result.metadata.avg_metrics.correct_city).toBe(0);
    expect(result.metadata.avg_reward).toBeLessThan(0.2);
  });

  it("rejects unknown arguments with a clear message", async () => {
    await expect(loadEnvironment({ numEvals: 3 })).rejects.toThrow(/numEvals/);
  });
});
