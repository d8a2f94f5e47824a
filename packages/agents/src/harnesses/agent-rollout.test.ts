// Failures of an agent rollout are data: a crashed harness, a time limit, a limit of turns, a
// model that fails, a score that throws and a runtime that will not start are each recorded on
// the rollout, which still returns its trace; through evaluate, the run goes on.
import { evaluate, OpenAIModelClient } from "@vf-rl/core";
import {
  AgentEnv,
  AgentTask,
  type Harness,
  type RuntimeFactory,
  runAgentRollout,
  startInterceptionServer,
  type Taskset,
} from "@vf-rl/core/agents";
import { type ReplyFn, startScriptedServer } from "@vf-rl/core/testing";
import { describe, expect, it } from "vitest";
import { subprocessRuntime } from "../subprocess/subprocess-runtime.ts";
import { bashHarness } from "./bash/bash-harness.ts";

const task = AgentTask.parse({
  id: "hello",
  exampleId: 0,
  prompt: [{ role: "user", content: "Write hello.txt." }],
  files: { "README.md": "a folder\n" },
  limits: { timeSeconds: 60, maxTurns: 5 },
});

/** Reward 1 when hello.txt holds "hello", as the taskset reads it in the runtime the agent left. */
const helloTaskset: Taskset = {
  id: "hello",
  tasks: async () => [task],
  score: async ({ runtime }) => ({
    reward: (await runtime.readFile("hello.txt"))?.trim() === "hello" ? 1 : 0,
    metrics: {},
  }),
};

/** The model writes hello.txt with bash, then answers. */
const writesHello: ReplyFn = (request) =>
  request.messages.some((message) => message.role === "tool")
    ? "Done."
    : { type: "message", toolCalls: [{ name: "bash", arguments: { command: "echo hello > hello.txt" } }] };

async function run(options: {
  reply: ReplyFn;
  task?: AgentTask;
  taskset?: Taskset;
  harness?: Harness;
  runtimes?: RuntimeFactory;
}) {
  const model = await startScriptedServer({ reply: options.reply });
  const client = new OpenAIModelClient({ baseUrl: model.url, apiKey: "EMPTY", maxRetries: 0 });
  const server = await startInterceptionServer();
  const started = Date.now();
  try {
    const rollout = await runAgentRollout({
      task: options.task ?? task,
      taskset: options.taskset ?? helloTaskset,
      harness: options.harness ?? bashHarness(),
      runtimes: options.runtimes ?? subprocessRuntime({ quiet: true }),
      server,
      client,
      model: "scripted",
    });
    return { ...rollout, seconds: (Date.now() - started) / 1000 };
  } finally {
    await server.close();
    await client.close();
    await model.close();
  }
}

describe("an agent rollout", () => {
  it("scores what the agent left", async () => {
    const { score, failures, trace } = await run({ reply: writesHello });
    expect(failures).toEqual([]);
    expect(score).toEqual({ reward: 1, metrics: {} });
    expect(trace.stop).toBe("agent_completed");
  });

  it("lets the taskset withhold a tool result before the model sees it, and keeps the edit in the trace", async () => {
    const hidden = { ...task, files: { ...task.files, "tests/hidden.txt": "the answer is hello" } };
    const seen: string[] = [];
    const peeks: ReplyFn = (request) => {
      const tool = request.messages.find((message) => message.role === "tool");
      if (tool) {
        seen.push(String(tool.content));
        return "Done.";
      }
      return {
        type: "message",
        toolCalls: [{ name: "bash", arguments: { command: "cat tests/hidden.txt" } }],
      };
    };
    const guarded: Taskset = {
      ...helloTaskset,
      onToolResult: ({ result, task: own }) =>
        String(result.content).includes("the answer")
          ? { type: "deny", reason: `task ${own.id}: the hidden tests are not the agent's to read` }
          : { type: "keep" },
    };
    const { trace } = await run({ reply: peeks, task: hidden, taskset: guarded });
    expect(seen).toEqual([
      "[vf] this tool result was withheld: task hello: the hidden tests are not the agent's to read",
    ]);
    expect(trace.toolResults).toMatchObject([
      {
        type: "deny",
        toolName: "bash",
        callIndex: 1,
        original: expect.stringContaining("the answer is hello"),
      },
    ]);
  });

  it("records a harness that throws, and still scores the runtime it left", async () => {
    const crashing: Harness = {
      id: "crashing",
      api: "openai_chat_completions",
      run: async ({ runtime }) => {
        await runtime.writeFile("hello.txt", "hello");
        throw new Error("segfault");
      },
    };
    const { score, failures, trace } = await run({ reply: writesHello, harness: crashing });
    expect(failures.map((f) => [f.stage, f.error.name, f.error.message])).toEqual([
      ["harness", "HarnessError", "the crashing harness failed: segfault"],
    ]);
    expect(trace.stop).toBe("error");
    expect(score?.reward).toBe(1);
  });

  it("ends an agent at the task's time limit, without calling it a failure", async () => {
    const slow = AgentTask.parse({ ...task, limits: { timeSeconds: 2, maxTurns: 5 } });
    const sleeps: ReplyFn = () => ({
      type: "message",
      toolCalls: [{ name: "bash", arguments: { command: "sleep 60" } }],
    });
    const { score, failures, trace, seconds } = await run({ reply: sleeps, task: slow });
    expect(trace.stop).toBe("timeout");
    expect(failures).toEqual([]);
    expect(score?.reward).toBe(0);
    expect(seconds).toBeLessThan(15);
  });

  it("stops an agent at the task's turn limit, without calling it a failure", async () => {
    const busy: ReplyFn = () => ({
      type: "message",
      toolCalls: [{ name: "bash", arguments: { command: "true" } }],
    });
    const { failures, trace } = await run({
      reply: busy,
      task: AgentTask.parse({ ...task, limits: { maxTurns: 3 } }),
    });
    expect(trace.stop).toBe("max_turns");
    expect(trace.calls).toHaveLength(3);
    expect(trace.exitCode).toBe(1);
    expect(trace.output).toContain("the task's limit of 3 model calls is reached");
    expect(failures).toEqual([]);
  });

  it("records an agent that exits with an error when the model fails", async () => {
    const failing: ReplyFn = () => ({ type: "error", status: 500, message: "the GPU caught fire" });
    const { failures, trace } = await run({ reply: failing });
    expect(trace.stop).toBe("error");
    expect(failures).toHaveLength(1);
    expect(failures[0]!.error.message).toMatch(
      /the bash harness exited with code 1: vf-bash-agent: the model call failed \(502\)/,
    );
  });

  it("records a score that throws, with no reward", async () => {
    const broken: Taskset = {
      ...helloTaskset,
      score: async () => {
        throw new Error("hidden tests missing");
      },
    };
    const { score, failures } = await run({ reply: writesHello, taskset: broken });
    expect(score).toBeNull();
    expect(failures.map((f) => [f.stage, f.error.name, f.error.message])).toEqual([
      ["score", "TasksetScoreError", "the hello taskset could not score task hello: hidden tests missing"],
    ]);
  });

  it("records a runtime that will not start, and runs no agent", async () => {
    const refusing: RuntimeFactory = {
      id: "refusing",
      create: async () => {
        throw new Error("no space left on device");
      },
    };
    const { score, failures, trace } = await run({ reply: writesHello, runtimes: refusing });
    expect(failures.map((f) => [f.stage, f.error.message])).toEqual([["runtime", "no space left on device"]]);
    expect(trace.stop).toBe("error");
    expect(trace.calls).toEqual([]);
    expect(score).toBeNull();
  });
});

describe("agent rollouts through evaluate", () => {
  it("hold each task to the environment's limits over the task's own ([env.agent] max_turns)", async () => {
    const busy: ReplyFn = () => ({
      type: "message",
      toolCalls: [{ name: "bash", arguments: { command: "true" } }],
    });
    const model = await startScriptedServer({ reply: busy });
    const client = new OpenAIModelClient({ baseUrl: model.url, apiKey: "EMPTY", maxRetries: 0 });
    const env = new AgentEnv({
      taskset: helloTaskset,
      harness: bashHarness(),
      runtimes: subprocessRuntime({ quiet: true }),
      limits: { maxTurns: 2 },
    });
    try {
      const { records } = await evaluate(env, { clients: client, model: "scripted" });
      expect(task.limits.maxTurns).toBe(5);
      expect(records[0]!.trace).toMatchObject({ stop: "max_turns" });
      expect(records[0]!.trace!.calls).toHaveLength(2);
    } finally {
      await env.teardown();
      await client.close();
      await model.close();
    }
  });

  it("record a failed rollout on its row and go on with the others", async () => {
    const tasks = [task, AgentTask.parse({ ...task, id: "broken", exampleId: 1 })];
    const taskset: Taskset = {
      id: "hello",
      tasks: async () => tasks,
      score: async (context) => {
        if (context.task.id === "broken") throw new Error("no checker for this task");
        return helloTaskset.score(context);
      },
    };
    const model = await startScriptedServer({ reply: writesHello });
    const client = new OpenAIModelClient({ baseUrl: model.url, apiKey: "EMPTY", maxRetries: 0 });
    const env = new AgentEnv({
      taskset,
      harness: bashHarness(),
      runtimes: subprocessRuntime({ quiet: true }),
    });
    try {
      const { records } = await evaluate(env, { clients: client, model: "scripted", rolloutsPerExample: 2 });
      expect(records.map((r) => [r.task, r.reward, r.scoring_errors.length])).toEqual([
        ["hello", 1, 0],
        ["hello", 1, 0],
        ["broken", 0, 1],
        ["broken", 0, 1],
      ]);
      expect(records[2]!.scoring_errors[0]).toMatchObject({
        function: "hello.score",
        error: { error: "TasksetScoreError" },
      });
      expect(records[2]!.trace!.calls).toHaveLength(2);
    } finally {
      await env.teardown();
      await client.close();
      await model.close();
    }
  });
});
