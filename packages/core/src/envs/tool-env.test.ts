import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { OpenAIModelClient } from "../client/openai-model-client.ts";
import { Dataset } from "../datasets/index.ts";
import {
  AuthoringError,
  DuplicateMetricError,
  SandboxError,
  ToolCallError,
  ToolParseError,
  UserError,
} from "../errors.ts";
import type { ToolMessage } from "../messages/message.ts";
import type { RolloutInput, RolloutState } from "../rollout/rollout-state.ts";
import { Rubric } from "../rubrics/rubric.ts";
import { type ScriptedServer, startScriptedServer } from "../testing/index.ts";
import { sequence } from "../testing/scripted-reply.ts";
import { tool } from "../tools/tool.ts";
import { SingleTurnEnv } from "./single-turn-env.ts";
import { type AnyTool, type ToolCallContext, ToolEnv } from "./tool-env.ts";

const dataset = Dataset.fromRows([{ question: "What is 6*7?", answer: "42" }]);
const input = (exampleId = 0): RolloutInput => ({
  exampleId,
  rolloutIndex: 0,
  prompt: [{ role: "user", content: "What is 6*7?" }],
  answer: "42",
  info: {},
  task: "default",
});

const multiply = tool({
  name: "multiply",
  description: "Multiply two numbers.",
  parameters: z.object({ a: z.number().describe("first factor"), b: z.number().describe("second factor") }),
  run: ({ a, b }) => String(a * b),
});

const explode = tool({
  name: "explode",
  description: "Always fails.",
  parameters: z.object({}),
  run: () => {
    throw new RangeError("kaboom");
  },
});

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientFor(replies: Parameters<typeof sequence>[0]) {
  server = await startScriptedServer({ reply: sequence(replies) });
  return new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY", maxRetries: 0 });
}

const call = (name: string, args: string | Record<string, unknown>, id = "call_1") => ({
  type: "message" as const,
  toolCalls: [{ id, name, arguments: args }],
});

const toolMessages = (state: RolloutState) =>
  state.completion.filter((m): m is ToolMessage => m.role === "tool");

describe("ToolEnv", () => {
  it("calls tools with parsed arguments, returns results, and ends when the model stops calling", async () => {
    const client = await clientFor([call("multiply", { a: 6, b: 7 }), "The answer is 42."]);
    const env = new ToolEnv({ dataset, tools: [multiply as AnyTool] });
    const state = await env.rollout(input(), { client, model: "scripted" });
    expect(toolMessages(state)).toEqual([{ role: "tool", tool_call_id: "call_1", content: "42" }]);
    expect(state.stopCondition).toBe("no_tools_called");
    expect(env.monitorMetrics(state)).toMatchObject({ total_tool_calls: 1, multiply_calls: 1, num_turns: 2 });
  });

  it("sends JSON-schema tool definitions built from the zod schema", async () => {
    const client = await clientFor(["no tools needed"]);
    await new ToolEnv({ dataset, tools: [multiply as AnyTool] }).rollout(input(), {
      client,
      model: "scripted",
    });
    expect(server!.requests[0]!.tools).toEqual([
      {
        type: "function",
        function: {
          name: "multiply",
          description: "Multiply two numbers.",
          parameters: expect.objectContaining({
            type: "object",
            properties: {
              a: { type: "number", description: "first factor" },
              b: { type: "number", description: "second factor" },
            },
            required: ["a", "b"],
          }),
        },
      },
    ]);
  });

  it("turns bad JSON, schema failures, unknown tools and raising tools into tool messages", async () => {
    const client = await clientFor([
      call("multiply", "{not json"),
      call("multiply", { a: "six", b: 7 }),
      call("divide", { a: 1 }),
      call("explode", {}),
      "giving up",
    ]);
    const env = new ToolEnv({ dataset, tools: [multiply as AnyTool, explode as AnyTool] });
    const state = await env.rollout(input(), { client, model: "scripted" });
    const contents = toolMessages(state).map((m) => m.content);
    expect(contents[0]).toMatch(/^Error: arguments of multiply are not valid JSON/);
    expect(contents[1]).toMatch(/^Error: arguments of multiply do not match its schema: a:/);
    expect(contents[2]).toMatch(/^Error: unknown tool "divide"; available tools: multiply, explode/);
    expect(contents[3]).toBe("Error: explode failed: kaboom");
    expect(state.error).toBeNull();
    expect(state.stopCondition).toBe("no_tools_called");
  });

  it("stops the rollout with a recorded error for classes in stopErrors, keeping the completion", async () => {
    const client = await clientFor([call("explode", {}), "never asked"]);
    const env = new ToolEnv({ dataset, tools: [explode as AnyTool], stopErrors: [ToolCallError] });
    const state = await env.rollout(input(), { client, model: "scripted" });
    expect(state.error).toMatchObject({ error: "ToolCallError", message: "explode failed: kaboom" });
    expect(state.error?.error_chain_repr).toContain("RangeError: kaboom");
    expect(state.stopCondition).toBe("has_error");
    expect(state.completion).toHaveLength(1);
    expect(server!.requests).toHaveLength(1);
  });

  it("records a listed error a tool raised as itself, keeping its retryability", async () => {
    const sandboxDown = tool({
      name: "sandbox_down",
      description: "Fails as an unavailable sandbox does.",
      parameters: z.object({}),
      run: () => {
        throw new SandboxError("no sandbox here: start one");
      },
    });
    const client = await clientFor([call("sandbox_down", {}), "never asked"]);
    const env = new ToolEnv({ dataset, tools: [sandboxDown as AnyTool], stopErrors: [SandboxError] });
    const state = await env.rollout(input(), { client, model: "scripted" });
    expect(state.error).toMatchObject({ error: "SandboxError", message: "no sandbox here: start one" });
    expect(state.retryable).toBe(true);
    expect(state.stopCondition).toBe("has_error");
  });

  it("stops on parse errors when ToolParseError is listed", async () => {
    const client = await clientFor([call("multiply", "{"), "never asked"]);
    const env = new ToolEnv({ dataset, tools: [multiply as AnyTool], stopErrors: [ToolParseError] });
    const state = await env.rollout(input(), { client, model: "scripted" });
    expect(state.error?.error).toBe("ToolParseError");
    expect(state.stopCondition).toBe("has_error");
  });

  it("uses a row's info.tool_defs instead of the environment's tools", async () => {
    const client = await clientFor(["ok"]);
    const custom = [
      { type: "function" as const, function: { name: "lookup", parameters: { type: "object" } } },
    ];
    const row = { ...input(), info: { tool_defs: custom } };
    await new ToolEnv({ dataset, tools: [multiply as AnyTool] }).rollout(row, { client, model: "scripted" });
    expect(server!.requests[0]!.tools).toEqual(custom);
  });

  it("refuses an author's tool mistakes as UserErrors naming the fix, not internal errors", () => {
    const mistakes = [
      () => tool({ ...multiply, name: "multiply two" }),
      () => new ToolEnv({ dataset, tools: [multiply as AnyTool, multiply as AnyTool] }),
    ];
    for (const mistake of mistakes) {
      expect(mistake).toThrow(AuthoringError);
      expect(mistake).toThrow(UserError);
    }
    expect(mistakes[0]).toThrow(/rename the tool/);
    expect(mistakes[1]).toThrow(/give each tool its own name/);
  });

  it("refuses a rubric metric named like a metric ToolEnv counts itself, which would replace its value", () => {
    // A metric returning 42 under ToolEnv's own "multiply_calls" was reported as the call count (0).
    const rubric = new Rubric().addMetric(() => 42, { name: "multiply_calls" });
    const build = () => new ToolEnv({ dataset, rubric, tools: [multiply as AnyTool] });
    expect(build).toThrow(DuplicateMetricError);
    expect(build).toThrow(
      `the rubric's "multiply_calls" is also a metric ToolEnv (the calls of tool multiply) reports itself, so one value would replace the other in every row: rename the rubric's function with { name: "..." }`,
    );
    const total = new Rubric().addMetric(() => 1, { name: "total_tool_calls" });
    expect(() => new ToolEnv({ dataset, rubric: total })).toThrow(DuplicateMetricError);
    const turns = new Rubric().addMetric(() => 1, { name: "num_turns" });
    expect(() => new SingleTurnEnv({ dataset, rubric: turns })).toThrow(/rubric's "num_turns"/);
  });

  it("lists every metric name once, and refuses one added to the rubric later under a ToolEnv name", () => {
    const rubric = new Rubric().addMetric(() => 42, { name: "answer_length" });
    const env = new ToolEnv({ dataset, rubric, tools: [multiply as AnyTool] });
    expect(env.metricNames()).toEqual(["answer_length", "num_turns", "total_tool_calls", "multiply_calls"]);
    rubric.addMetric(() => 42, { name: "multiply_calls" });
    expect(() => env.metricNames()).toThrow(DuplicateMetricError);
  });
});

describe("a tool and its rollout's state", () => {
  const readFolder = tool({
    name: "read_folder",
    description: "Read the rollout's folder.",
    parameters: z.object({ file: z.string() }),
    run: ({ file }, ctx: ToolCallContext<{ folder: string }>) => `${ctx.state.data.folder}/${file}`,
  });

  class Folders extends ToolEnv<{ folder: string }> {
    constructor() {
      super({
        dataset,
        tools: [readFolder],
        initialData: (input) => ({ folder: `/tmp/rollout-${input.exampleId}` }),
      });
    }
  }

  it("gives each call its own rollout's data, which the model neither sees nor sets", async () => {
    server = await startScriptedServer({
      reply: (request) =>
        request.messages.at(-1)?.role === "tool"
          ? "done"
          : {
              type: "message",
              toolCalls: [{ name: "read_folder", arguments: { file: "a.txt", folder: "/etc" } }],
            },
    });
    const client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY", maxRetries: 0 });
    const env = new Folders();
    const [first, second] = await Promise.all([
      env.rollout(input(1), { client, model: "scripted" }),
      env.rollout(input(2), { client, model: "scripted" }),
    ]);
    const parameters = server.requests[0]!.tools![0]!.function.parameters as {
      properties: object;
      required: string[];
    };
    expect(Object.keys(parameters.properties)).toEqual(["file"]);
    expect(parameters.required).toEqual(["file"]);
    expect(toolMessages(first!)[0]!.content).toBe("/tmp/rollout-1/a.txt");
    expect(toolMessages(second!)[0]!.content).toBe("/tmp/rollout-2/a.txt");
  });
});
