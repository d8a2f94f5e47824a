// vf's environments run as tasksets unchanged: environmentTaskset with the environment's own chat
// loop, and the plain chat harness, score what `evaluate` scores against the same scripted model;
// the plain chat harness calls the tools of the task's MCP servers.
import { type Environment, evaluate, OpenAIModelClient } from "@vf-rl/core";
import {
  AgentEnv,
  type AgentTask,
  environmentTaskset,
  runAgentRollout,
  startInterceptionServer,
} from "@vf-rl/core/agents";
import { loadEnvironmentById } from "@vf-rl/core/loading";
import { type ReplyFn, referenceReplies, startScriptedServer } from "@vf-rl/core/testing";
import { describe, expect, it } from "vitest";
import { startHttpTestServer } from "../../../../core/src/mcp/fixtures/http-test-server.ts";
import { createTestToolServer } from "../../../../core/src/mcp/fixtures/test-tool-server.ts";
import { subprocessRuntime } from "../../subprocess/subprocess-runtime.ts";
import { chatHarness } from "./chat-harness.ts";

/** Each row's reward by example, from `evaluate` of `env` against a scripted model answering `reply`. */
async function rewards(
  // biome-ignore lint/suspicious/noExplicitAny: environments of any state type
  env: Environment<any>,
  reply: ReplyFn,
  numExamples: number,
): Promise<Array<[number, number]>> {
  const model = await startScriptedServer({ reply });
  const client = new OpenAIModelClient({ baseUrl: model.url, apiKey: "EMPTY", maxRetries: 0 });
  try {
    const { records } = await evaluate(env, { clients: client, model: "scripted", numExamples });
    for (const record of records) expect(record.error).toBeNull();
    return records.map((record) => [record.example_id, record.reward]);
  } finally {
    await client.close();
    await model.close();
  }
}

/** Reverses the first half of the passage: a partial reward, different for each row. */
const halfReversed: ReplyFn = (request) => {
  const text = String(request.messages.at(-1)!.content);
  return `<reversed_text>${Array.from(text.slice(0, text.length / 2))
    .reverse()
    .join("")}</reversed_text>`;
};

describe("an environment as a taskset", () => {
  it("reverse-text scores the same through its own chat loop, the plain chat harness and vf's evaluate", async () => {
    const { env } = await loadEnvironmentById("reverse-text");
    const direct = await rewards(env, halfReversed, 4);
    expect(new Set(direct.map(([, reward]) => reward)).size).toBeGreaterThan(1);
    const taskset = environmentTaskset(env, { id: "reverse-text" });
    for (const harness of [taskset.harness, chatHarness()]) {
      const agents = new AgentEnv({ taskset, harness, runtimes: subprocessRuntime({ quiet: true }) });
      try {
        expect(await rewards(agents, halfReversed, 4)).toEqual(direct);
      } finally {
        await agents.teardown();
      }
    }
  });

  it.for(["tool-arithmetic", "gsm8k-calculator", "alphabet-sort", "wordle"])(
    "%s (tools, several turns, the environment's replies) scores as in evaluate through its own loop",
    async (id) => {
      const { env } = await loadEnvironmentById(id);
      const reply = await referenceReplies(env);
      const direct = await rewards(env, reply, 3);
      // (wordle's rows share one prompt, so the reference script wins one game of them)
      expect(direct.some(([, reward]) => reward > 0)).toBe(true);
      const taskset = environmentTaskset(env, { id });
      const agents = new AgentEnv({
        taskset,
        harness: taskset.harness,
        runtimes: subprocessRuntime({ quiet: true }),
      });
      try {
        expect(await rewards(agents, reply, 3)).toEqual(direct);
      } finally {
        await agents.teardown();
        await env.teardown();
      }
    },
  );
});

describe("the chat harness", () => {
  it("calls the tools of the task's MCP servers until the model answers without one", async () => {
    const tools = await startHttpTestServer(createTestToolServer);
    const model = await startScriptedServer({
      reply: (request) =>
        request.messages.some((message) => message.role === "tool")
          ? `the tool said: ${String(request.messages.at(-1)!.content)}`
          : { type: "message", toolCalls: [{ name: "echo", arguments: { text: "hello" } }] },
    });
    const client = new OpenAIModelClient({ baseUrl: model.url, apiKey: "EMPTY", maxRetries: 0 });
    const server = await startInterceptionServer();
    try {
      const task: AgentTask = {
        id: "echo",
        exampleId: 0,
        prompt: [{ role: "user", content: "Echo hello." }],
        answer: "",
        info: {},
        files: {},
        network: { allow: [], block: [] },
        limits: { timeSeconds: 60, maxTurns: 5 },
      };
      const rollout = await runAgentRollout({
        task,
        taskset: { id: "echo", tasks: async () => [task], score: async () => ({ reward: 1, metrics: {} }) },
        harness: chatHarness(),
        runtimes: subprocessRuntime({ quiet: true }),
        server,
        client,
        model: "scripted",
        mcpUrls: [tools.url],
      });
      expect(rollout.failures).toEqual([]);
      expect(rollout.trace.calls).toHaveLength(2);
      expect(rollout.trace.calls[0]!.tools.map((tool) => tool.function.name)).toContain("echo");
      expect(rollout.trace.calls[1]!.reply!.content).toBe("the tool said: hello");
      expect(rollout.trace.output).toBe("the tool said: hello");
    } finally {
      await server.close();
      await client.close();
      await model.close();
      await tools.close();
    }
  });
});
