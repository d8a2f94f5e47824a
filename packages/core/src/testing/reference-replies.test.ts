import { describe, expect, it } from "vitest";
import { z } from "zod";
import { OpenAIModelClient } from "../client/openai-model-client.ts";
import { Dataset } from "../datasets/index.ts";
import { ToolEnv } from "../envs/tool-env.ts";
import { evaluate } from "../generate/evaluate.ts";
import { lastAssistantText } from "../messages/message.ts";
import { Rubric } from "../rubrics/rubric.ts";
import { tool } from "../tools/tool.ts";
import { referenceReplies } from "./reference-replies.ts";
import { startScriptedServer } from "./scripted-server.ts";

const double = tool({
  name: "double",
  description: "Doubles a number.",
  parameters: z.object({ n: z.number() }),
  run: ({ n }) => String(2 * n),
});

describe("referenceReplies", () => {
  it("replays each row's reference conversation, tool calls included, to the top reward", async () => {
    const env = new ToolEnv({
      tools: [double],
      dataset: Dataset.fromRows([
        { question: "Double 3", answer: "6", info: { n: 3 } },
        { question: "Double 21", answer: "42", info: { n: 21 } },
      ]),
      rubric: new Rubric().addReward(({ completion, answer }) => lastAssistantText(completion) === answer, {
        name: "exact",
      }),
      referenceCompletion: (input) => [
        {
          role: "assistant",
          content: "",
          tool_calls: [
            {
              id: "c1",
              type: "function",
              function: { name: "double", arguments: JSON.stringify({ n: input.info.n }) },
            },
          ],
        },
        { role: "tool", tool_call_id: "c1", content: input.answer },
        { role: "assistant", content: input.answer },
      ],
    });
    const server = await startScriptedServer({ reply: await referenceReplies(env) });
    try {
      const client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY" });
      const result = await evaluate(env, { clients: client, model: "scripted", rolloutsPerExample: 2 });
      expect(result.records.map((r) => r.reward)).toEqual([1, 1, 1, 1]);
      expect(result.metadata.avg_metrics.double_calls).toBe(1);
    } finally {
      await server.close();
    }
  });
});
