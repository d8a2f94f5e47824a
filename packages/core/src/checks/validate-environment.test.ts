// Rows validated without a model: a ToolEnv's reference runs its tool call through the environment's
// own loop and scores the maximum; a reference with fewer replies than the loop asks for fails the
// row as a rollout; a row with no answer and no reference is checked up to its prompt; prompts over
// the limit are named with their length.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Dataset } from "../datasets/index.ts";
import { SingleTurnEnv } from "../envs/single-turn-env.ts";
import { ToolEnv } from "../envs/tool-env.ts";
import { lastAssistantText } from "../messages/message.ts";
import { Rubric } from "../rubrics/rubric.ts";
import { tool } from "../tools/tool.ts";
import { validateEnvironment } from "./validate-environment.ts";

const exact = new Rubric().addReward(({ completion, answer }) => lastAssistantText(completion) === answer, {
  name: "exact",
});

describe("validateEnvironment", () => {
  it("runs a ToolEnv's reference, tool call and all, through the environment's loop", async () => {
    let calls = 0;
    const multiply = tool({
      name: "multiply",
      description: "Multiply two numbers.",
      parameters: z.object({ a: z.number(), b: z.number() }),
      run: ({ a, b }) => {
        calls++;
        return String(a * b);
      },
    });
    const env = new ToolEnv({
      evalDataset: Dataset.fromRows([{ question: "6*7?", answer: "42" }]),
      tools: [multiply],
      rubric: exact,
      referenceCompletion: () => [
        {
          role: "assistant",
          content: "",
          tool_calls: [
            { id: "c1", type: "function", function: { name: "multiply", arguments: '{"a":6,"b":7}' } },
          ],
        },
        { role: "tool", tool_call_id: "c1", content: "42" },
        { role: "assistant", content: "42" },
      ],
    });
    const report = await validateEnvironment(env);
    expect(report).toMatchObject({ checked: 1, referencesScored: 1, maxReward: 1, failures: [] });
    expect(calls).toBe(1);
  });

  it("fails a row whose reference runs out of replies, skips one with no reference, counts prompts", async () => {
    const env = new ToolEnv({
      evalDataset: Dataset.fromRows([
        { question: "6*7?", answer: "42" },
        { question: "no answer here", answer: "" },
      ]),
      tools: [],
      rubric: exact,
      // A tool call for a tool the environment answers with an error, then no more replies.
      referenceCompletion: (input) =>
        input.answer === ""
          ? [{ role: "assistant", content: "" }]
          : [
              {
                role: "assistant",
                content: "",
                tool_calls: [{ id: "c1", type: "function", function: { name: "nope", arguments: "{}" } }],
              },
            ],
    });
    const report = await validateEnvironment(env, {
      countPromptTokens: (prompt) => JSON.stringify(prompt).length,
      maxPromptTokens: 40,
    });
    expect(report.checked).toBe(2);
    expect(report.referencesScored).toBe(0);
    expect(report.failures).toEqual([
      { kind: "rollout", id: "0", message: expect.stringContaining("the reference completion has 1") },
      { kind: "too_long", id: "1", message: "the prompt is 44 tokens, over the limit of 40" },
    ]);
  });

  it("reports an environment without rows to load", async () => {
    const env = new SingleTurnEnv({
      evalDataset: () => {
        throw new Error("data/rows.jsonl is missing");
      },
    });
    const report = await validateEnvironment(env);
    expect(report.failures).toEqual([{ kind: "load", id: "", message: "data/rows.jsonl is missing" }]);
  });
});
