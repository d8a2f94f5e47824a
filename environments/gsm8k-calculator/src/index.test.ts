// The tool loop, the rubric on every row and the arguments, in process; e2e.test.ts drives the vf binary.
import { contentText, evaluate, type Messages, OpenAIModelClient } from "@vf-rl/core";
import {
  byPrompt,
  type ReplyFn,
  type ScriptedReply,
  scoreCompletion,
  startScriptedServer,
} from "@vf-rl/core/testing";
import { describe, expect, it } from "vitest";
import { loadEnvironment, SYSTEM_PROMPT } from "./index.ts";

async function evaluateWith(reply: ReplyFn, numExamples = 3) {
  const server = await startScriptedServer({ reply });
  try {
    const env = await loadEnvironment({});
    const client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY" });
    const result = await evaluate(env, { clients: client, model: "scripted", numExamples });
    return { result, requests: server.requests };
  } finally {
    await server.close();
  }
}

/** Arguments of one call: an expression, or raw argument text as a model might send it. */
type CallArgs = string | { raw: string };

/** Calls the tool once per turn with each of `calls`, then answers `final`. */
function callsThenAnswer(calls: CallArgs[], final: string): ReplyFn {
  return byPrompt((messages: Messages): ScriptedReply => {
    const done = messages.filter((m) => m.role === "tool").length;
    if (done >= calls.length) return { type: "message", content: final };
    const args = calls[done]!;
    return {
      type: "message",
      content: "",
      toolCalls: [
        { name: "calculate", arguments: typeof args === "string" ? { expression: args } : args.raw },
      ],
    };
  });
}

const toolReplies = (completion: Messages) =>
  completion.filter((m) => m.role === "tool").map((m) => contentText(m.content));

describe("the calculate tool in a rollout", () => {
  it("offers the tool, runs each call and ends when the model answers", async () => {
    const { result, requests } = await evaluateWith(
      callsThenAnswer(["16 - 3 - 4", "9 * 2"], "\\boxed{18}"),
      1,
    );
    const [record] = result.records;
    expect(requests[0]!.tools?.map((t) => t.function.name)).toEqual(["calculate"]);
    expect(record!.prompt[0]).toEqual({ role: "system", content: SYSTEM_PROMPT });
    expect(toolReplies(record!.completion)).toEqual(["9", "18"]);
    expect(record!.stop_condition).toBe("no_tools_called");
    expect(record!.metrics).toMatchObject({
      correct_answer: 1,
      calculate_errors: 0,
      calculate_calls: 2,
      total_tool_calls: 2,
      num_turns: 3,
    });
  });

  it("answers hostile expressions and bad arguments with tool errors, and the rollout goes on", async () => {
    const hostile: CallArgs[] = [
      "process.exit()",
      "constructor",
      "__proto__",
      "1e999999",
      `${"(".repeat(10_000)}1${")".repeat(10_000)}`,
      "1 / 0",
      { raw: '{"expression": {"toString": "1"}}' },
      { raw: "{not json" },
      "2 + 2",
    ];
    const { result } = await evaluateWith(callsThenAnswer(hostile, "\\boxed{18}"), 1);
    const [record] = result.records;
    const replies = toolReplies(record!.completion);
    expect(replies.slice(0, 8)).toEqual([
      expect.stringMatching(/^Error: calculate failed: unexpected "process" at character 1/),
      expect.stringMatching(/^Error: calculate failed: unexpected "constructor" at character 1/),
      expect.stringMatching(/^Error: calculate failed: unexpected "__proto__" at character 1/),
      expect.stringMatching(/^Error: calculate failed: the number 1e999999 is too large/),
      expect.stringMatching(/^Error: calculate failed: the expression is 20001 characters long/),
      "Error: calculate failed: division by zero",
      expect.stringMatching(/^Error: arguments of calculate do not match its schema: expression:/),
      expect.stringMatching(/^Error: arguments of calculate are not valid JSON/),
    ]);
    expect(replies[8]).toBe("4");
    expect(record!.error).toBeNull();
    expect(record!.metrics).toMatchObject({ correct_answer: 1, calculate_errors: 8, calculate_calls: 9 });
  });

  it("stops a model that keeps calling the tool at maxTurns, unscored for a missing answer", async () => {
    const forever = byPrompt(
      (): ScriptedReply => ({
        type: "message",
        toolCalls: [{ name: "calculate", arguments: { expression: "1+1" } }],
      }),
    );
    const { result } = await evaluateWith(forever, 1);
    expect(result.records[0]!.stop_condition).toBe("max_turns_reached");
    expect(result.records[0]!.metrics).toMatchObject({ correct_answer: 0, calculate_calls: 10 });
  });
});

describe("gsm8k-calculator rubric", () => {
  /** The calculator asked for 9 * 2 (it answers 18), then the model's final reply. */
  const afterCalculating = (final: string): Messages => [
    {
      role: "assistant",
      content: "",
      tool_calls: [
        { id: "c1", type: "function", function: { name: "calculate", arguments: '{"expression": "9 * 2"}' } },
      ],
    },
    { role: "tool", tool_call_id: "c1", content: "18" },
    { role: "assistant", content: final },
  ];
  const firstRow = async (args: Record<string, unknown>) => {
    const env = await loadEnvironment({ numEval: 1, ...args });
    const [input] = (await env.inputs({ split: "eval" })).inputs;
    return { env, input: input! };
  };

  it("rewards only a boxed answer; a right number without a box counts in the lenient metric alone", async () => {
    const { env, input } = await firstRow({});
    expect(input.answer).toBe("18");
    const boxed = await scoreCompletion(env, input, afterCalculating("She makes \\boxed{18} a day."));
    expect(boxed.reward).toBe(1);
    expect(boxed.metrics).toMatchObject({
      correct_answer: 1,
      lenient_correct_answer: 1,
      calculate_errors: 0,
    });
    const unboxed = await scoreCompletion(env, input, afterCalculating("She makes $18 a day."));
    expect(unboxed.reward).toBe(0);
    expect(unboxed.metrics).toMatchObject({ correct_answer: 0, lenient_correct_answer: 1 });
    expect((await scoreCompletion(env, input, afterCalculating("So \\boxed{20}."))).reward).toBe(0);
    // the calculator's 18 is not the model's answer
    const noAnswer = await scoreCompletion(env, input, afterCalculating("I am not sure."));
    expect(noAnswer.metrics).toMatchObject({ correct_answer: 0, lenient_correct_answer: 0 });
  });

  it("rewards the last number of the reply when asked to be lenient", async () => {
    const { env, input } = await firstRow({ lenient: true });
    expect((await scoreCompletion(env, input, afterCalculating("She makes $18 a day."))).reward).toBe(1);
    expect((await scoreCompletion(env, input, afterCalculating("She makes \\boxed{18} a day."))).reward).toBe(
      1,
    );
    expect((await scoreCompletion(env, input, afterCalculating("She makes $20 a day."))).reward).toBe(0);
    expect((await scoreCompletion(env, input, afterCalculating("I am not sure."))).reward).toBe(0);
    await expect(loadEnvironment({ lenient: "yes" })).rejects.toThrow(/lenient/);
  });
});

describe("gsm8k-calculator rows", () => {
  it("gives every reference conversation of the test split the full reward when replayed", async () => {
    const env = await loadEnvironment({ numEval: 25 });
    const { inputs } = await env.inputs({ split: "eval" });
    const references = new Map(
      inputs.map((input) => [contentText(input.prompt[1]!.content), env.referenceCompletion(input)]),
    );
    const replay = byPrompt((messages: Messages): ScriptedReply => {
      const reference = references.get(contentText(messages[1]!.content))!;
      const turn = messages.filter((m) => m.role === "assistant").length;
      const message = reference.filter((m) => m.role === "assistant")[turn]!;
      return {
        type: "message",
        content: message.content === null ? null : contentText(message.content),
        toolCalls: message.tool_calls?.map((c) => ({
          id: c.id,
          name: c.function.name,
          arguments: c.function.arguments,
        })),
      };
    });
    const server = await startScriptedServer({ reply: replay });
    try {
      const client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY" });
      const result = await evaluate(env, { clients: client, model: "scripted" });
      expect(result.records).toHaveLength(25);
      for (const record of result.records) {
        // The tool's real answers are the ones the reference expects.
        const reference = references.get(contentText(record.prompt[1]!.content))!;
        expect(record.completion).toEqual(reference);
        expect(record.metrics).toMatchObject({ correct_answer: 1, calculate_errors: 0 });
      }
    } finally {
      await server.close();
    }
  });

  it("follows the arguments and rejects unknown ones", async () => {
    const env = await loadEnvironment({ numEval: 2, numTrain: 3, maxTurns: 4 });
    expect((await env.inputs({ split: "eval" })).inputs.map((i) => i.answer)).toEqual(["18", "3"]);
    expect((await env.inputs({ split: "train" })).inputs).toHaveLength(3);
    await expect(loadEnvironment({ max_turns: 3 })).rejects.toThrow(/max_turns/);
    await expect(loadEnvironment({ maxTurns: 0 })).rejects.toThrow(/maxTurns/);
  });
});
