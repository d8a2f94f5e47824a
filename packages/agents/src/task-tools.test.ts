// A taskset's own tools (core's Taskset.tools, agents/task-tools.ts) reach real harnesses: the chat
// harness's MCP client (the SDK's) and the bash agent's own (plain JSON-RPC, in the runtime) find
// them at the URL the interception server gives each rollout, call them
// with the scripted model's arguments, and what a tool leaves in the rollout's runtime is what the
// taskset scores. A bad argument goes back to the agent as an error; the URL closes with the rollout.
import { evaluate, OpenAIModelClient, TasksetToolsError, tool } from "@vf-rl/core";
import {
  AgentEnv,
  type AgentTask,
  runAgentRollout,
  startInterceptionServer,
  type Taskset,
  type TaskTool,
} from "@vf-rl/core/agents";
import { type ReplyFn, startScriptedServer } from "@vf-rl/core/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { bashHarness } from "./harnesses/bash/bash-harness.ts";
import { chatHarness } from "./harnesses/chat/chat-harness.ts";
import { subprocessRuntime } from "./subprocess/subprocess-runtime.ts";

const CAPITALS: Record<string, string> = { France: "Paris", Japan: "Tokyo" };

function capitalTask(country: string, exampleId: number): AgentTask {
  return {
    id: country.toLowerCase(),
    exampleId,
    prompt: [{ role: "user", content: `Submit the capital of ${country}.` }],
    answer: CAPITALS[country]!,
    info: {},
    files: {},
    network: { allow: [], block: [] },
    limits: { timeSeconds: 60, maxTurns: 5 },
  };
}

/** `submit` writes the answer into the agent's working folder, where `score` reads it. */
const submit: TaskTool = tool({
  name: "submit",
  description: "Submit your final answer.",
  parameters: z.object({ answer: z.string() }),
  run: async ({ answer }, { runtime }) => {
    await runtime.writeFile("answer.txt", answer);
    return `submitted ${answer}`;
  },
});

const capitals: Taskset = {
  id: "capitals-by-tool",
  tasks: async () => [capitalTask("France", 0), capitalTask("Japan", 1)],
  tools: () => [submit],
  score: async ({ task, runtime }) => {
    const answer = await runtime.readFile("answer.txt");
    return { reward: answer === task.answer ? 1 : 0, metrics: {} };
  },
};

/** Submits `answer(prompt)` with the tool, then says it is done. */
function submitting(answer: (prompt: string) => unknown): ReplyFn {
  return (request) => {
    const last = request.messages.at(-1)!;
    if (last.role === "tool") return `done: ${String(last.content)}`;
    return {
      type: "message",
      toolCalls: [{ name: "submit", arguments: { answer: answer(String(last.content)) } }],
    };
  };
}

async function withModel<T>(reply: ReplyFn, use: (client: OpenAIModelClient) => Promise<T>): Promise<T> {
  const model = await startScriptedServer({ reply });
  const client = new OpenAIModelClient({ baseUrl: model.url, apiKey: "EMPTY", maxRetries: 0 });
  try {
    return await use(client);
  } finally {
    await client.close();
    await model.close();
  }
}

describe("a taskset's own tools", () => {
  it.for([
    ["chat", chatHarness()],
    ["bash", bashHarness()],
  ] as const)(
    "are served to each rollout's agent over MCP (the %s harness), and what they leave in its runtime is scored",
    async ([, harness]) => {
      // Right for France, wrong for Japan: each rollout's submission lands in its own runtime.
      const reply = submitting((prompt) => (prompt.includes("France") ? "Paris" : "Kyoto"));
      const env = new AgentEnv({
        taskset: capitals,
        harness,
        runtimes: subprocessRuntime({ quiet: true }),
      });
      try {
        const { records } = await withModel(reply, (client) =>
          evaluate(env, { clients: client, model: "scripted", numExamples: 2, rolloutsPerExample: 2 }),
        );
        expect(records.map((r) => r.error)).toEqual([null, null, null, null]);
        expect(records.map((r) => [r.example_id, r.reward])).toEqual([
          [0, 1],
          [0, 1],
          [1, 0],
          [1, 0],
        ]);
        // The agent was offered the tool, and read its result.
        const completion = JSON.stringify(records[0]!.completion);
        expect(completion).toContain("submitted Paris");
        expect(records[0]!.tool_defs?.map((d) => d.function.name)).toContain("submit");
      } finally {
        await env.teardown();
      }
    },
  );

  it("answers a call its schema refuses with an error the agent reads, and stops serving when the rollout ends", async () => {
    const served: string[] = [];
    const inner = chatHarness();
    const harness = {
      ...inner,
      run: (ctx: Parameters<typeof inner.run>[0]) => {
        served.push(...ctx.mcpUrls);
        return inner.run(ctx);
      },
    };
    const server = await startInterceptionServer();
    try {
      const rollout = await withModel(
        submitting(() => 42),
        (client) =>
          runAgentRollout({
            task: capitalTask("France", 0),
            taskset: capitals,
            harness,
            runtimes: subprocessRuntime({ quiet: true }),
            server,
            client,
            model: "scripted",
          }),
      );
      expect(rollout.failures).toEqual([]);
      expect(rollout.score).toEqual({ reward: 0, metrics: {} });
      // The chat harness says an MCP error result as a failed call, with the server's text.
      expect(rollout.trace.output).toMatch(
        /^done: Error: .*arguments of submit do not match its schema: answer: Invalid input: expected string, received number$/,
      );
      expect(served).toEqual([expect.stringMatching(new RegExp(`^${server.url}/mcp/vf-`))]);
      const after = await fetch(served[0]!, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      expect(after.status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it("that cannot be made leave the agent unrun and the failure recorded", async () => {
    const server = await startInterceptionServer();
    try {
      const broken: Taskset = {
        ...capitals,
        tools: () => {
          throw new Error("the glossary is missing");
        },
      };
      const rollout = await withModel(
        submitting(() => "Paris"),
        (client) =>
          runAgentRollout({
            task: capitalTask("France", 0),
            taskset: broken,
            harness: chatHarness(),
            runtimes: subprocessRuntime({ quiet: true }),
            server,
            client,
            model: "scripted",
          }),
      );
      expect(rollout.failures).toHaveLength(1);
      expect(rollout.failures[0]!.stage).toBe("tools");
      expect(rollout.failures[0]!.error).toBeInstanceOf(TasksetToolsError);
      expect(rollout.failures[0]!.error.message).toBe(
        "the capitals-by-tool taskset could not make task france's tools: the glossary is missing",
      );
      expect(rollout.trace.calls).toEqual([]);
      expect(rollout.score).toBeNull();
    } finally {
      await server.close();
    }
  });
});
