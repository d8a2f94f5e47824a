// The tool loop and the reward in process, against a scripted model on loopback; e2e.test.ts drives
// the vf binary.
import { contentText, evaluate, type Messages, OpenAIModelClient } from "@vf-rl/core";
import {
  byPrompt,
  lastUserText,
  type ReplyFn,
  referenceReplies,
  type ScriptedReply,
  startScriptedServer,
} from "@vf-rl/core/testing";
import { describe, expect, it } from "vitest";
import { answerText, drawProblems, loadEnvironment, SYSTEM_PROMPT } from "./index.ts";

async function evaluateWith(reply: ReplyFn, numExamples = 4) {
  const server = await startScriptedServer({ reply });
  try {
    const env = await loadEnvironment({ numEval: 20 });
    const client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY" });
    const result = await evaluate(env, { clients: client, model: "scripted", numExamples });
    return { result, requests: server.requests };
  } finally {
    await server.close();
  }
}

/** The expression inside a question such as `What is 417 * 38 + 256?`. */
const expressionOf = (question: string) => /\d[\d *+-]*\d/.exec(question)![0];

describe("tool-arithmetic rollouts", () => {
  it("give a model that calls the calculator on the question and boxes the result the full reward", async () => {
    const calls = byPrompt((messages: Messages): ScriptedReply => {
      const result = messages.find((m) => m.role === "tool");
      if (result) return { type: "message", content: answerText(contentText(result.content)) };
      const expression = expressionOf(lastUserText(messages));
      return {
        type: "message",
        content: null,
        toolCalls: [{ name: "calculate", arguments: { expression } }],
      };
    });
    const { result, requests } = await evaluateWith(calls);
    expect(requests[0]!.tools?.map((t) => t.function.name)).toEqual(["calculate"]);
    expect(result.records).toHaveLength(4);
    for (const record of result.records) {
      expect(record.prompt[0]).toEqual({ role: "system", content: SYSTEM_PROMPT });
      expect(record.metrics).toMatchObject({ correct_answer: 1, calculate_calls: 1, num_turns: 2 });
      expect(record.stop_condition).toBe("no_tools_called");
    }
  });

  it("give a model that answers from its head only what it gets right", async () => {
    const problems = drawProblems({ seed: 0, numTrain: 0, numEval: 4 }).eval;
    // Right on the first problem, one off on the others.
    const guess = byPrompt((messages: Messages) => {
      const index = problems.findIndex((p) => p.question === lastUserText(messages));
      const value = Number(problems[index]!.answer) + (index === 0 ? 0 : 1);
      return `${problems[index]!.expression} = ${value}\n${answerText(String(value))}`;
    });
    const { result } = await evaluateWith(guess);
    const byQuestion = new Map(result.records.map((r) => [contentText(r.prompt[1]!.content), r]));
    expect(problems.map((p) => byQuestion.get(p.question)!.reward)).toEqual([1, 0, 0, 0]);
    expect(result.records.every((r) => r.metrics.calculate_calls === 0 && r.metrics.num_turns === 1)).toBe(
      true,
    );
  });

  it("give the right value outside \\boxed{} nothing", async () => {
    const problems = drawProblems({ seed: 0, numTrain: 0, numEval: 4 }).eval;
    const unboxed = byPrompt(
      (messages: Messages) => problems.find((p) => p.question === lastUserText(messages))!.answer,
    );
    const { result } = await evaluateWith(unboxed);
    expect(result.records.map((r) => r.reward)).toEqual([0, 0, 0, 0]);
  });

  it("replay each evaluation row's reference conversation to the full reward", async () => {
    const env = await loadEnvironment({ numEval: 20 });
    const { result } = await evaluateWith(await referenceReplies(env), 20);
    expect(result.records.map((r) => r.reward)).toEqual(Array(20).fill(1));
  });
});

describe("tool-arithmetic's arguments", () => {
  it("draws as many rows as asked, from disjoint splits", async () => {
    const env = await loadEnvironment({ numTrain: 30, numEval: 12 });
    const train = (await env.inputs({ split: "train" })).inputs;
    const held = (await env.inputs({ split: "eval" })).inputs;
    expect([train.length, held.length]).toEqual([30, 12]);
    const heldQuestions = new Set(held.map((i) => lastUserText(i.prompt)));
    expect(train.filter((i) => heldQuestions.has(lastUserText(i.prompt)))).toEqual([]);
  });

  it("refuses an unknown or out-of-range argument with the key's name", async () => {
    await expect(loadEnvironment({ numEval: 0 })).rejects.toThrow(/numEval/);
    await expect(loadEnvironment({ numEvals: 10 })).rejects.toThrow(/numEvals/);
  });
});
