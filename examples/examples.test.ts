// The README's examples run: the word-count environment scores a perfect model 1.1 and a useless one
// almost 0 (XMLParser's format score, like verifiers', gives 0.2 for spacing even without tags).
import { evaluate, OpenAIModelClient } from "@vf-rl/core";
import { byPrompt, lastUserText, startScriptedServer } from "@vf-rl/core/testing";
import { describe, expect, it } from "vitest";
import { loadEnvironment } from "./word-count-env.ts";

async function meanReward(answer: (question: string) => string): Promise<number> {
  const server = await startScriptedServer({ reply: byPrompt((messages) => answer(lastUserText(messages))) });
  try {
    const env = await loadEnvironment({ repeat: 1 });
    const client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY" });
    const result = await evaluate(env, { clients: client, model: "scripted", rolloutsPerExample: 2 });
    return result.metadata.avg_reward;
  } finally {
    await server.close();
  }
}

describe("README example", () => {
  it("rewards a correct, well-formatted count", async () => {
    const count = (q: string) => String(/"(.*)"/.exec(q)![1]!.split(" ").length);
    expect(await meanReward((q) => `<count>\n${count(q)}\n</count>`)).toBeCloseTo(1.1);
  });

  it("gives almost nothing for an answer without the format", async () => {
    expect(await meanReward(() => "no idea")).toBeCloseTo(0.1 * 0.2);
  });
});
