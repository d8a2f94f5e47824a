/**
 * `vf env serve coding-tasks --harness bash` in another process, driven by the TypeScript client as
 * prime-rl's orchestrator drives a v1 server: each run is one bash-agent rollout against a scripted
 * model with token ids, answered with the harness's trace as a v1 episode (the agent's calls as
 * sampled nodes with their tokens, the taskset's reward); a cancelled run ends the agent and all it
 * started; v0 run_group answers the same rollouts as RolloutOutput rows with their trajectory.
 * In the subprocess runtime and, where this machine can confine, the local sandbox.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { CancelledError } from "@vf-rl/core/errors";
import { loadEnvironmentById } from "@vf-rl/core/loading";
import { referenceReplies, type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EnvClient } from "../src/client/env-client.ts";
import type { Trace } from "../src/episode/episode.ts";
import { startEnvServer } from "../src/server/env-server.ts";
import type { TaskData } from "../src/wire/task-data.ts";
import {
  agentRuntimes,
  commandsOf,
  descendantsOf,
  eventually,
  processesWith,
  type ServedProgram,
  serveProgram,
  startCodingModel,
} from "./agent-support.ts";

/** Not tsx's esbuild service, which the worker (run from TypeScript sources) starts to compile them. */
const notTsx = (pid: number) => !readCommand(pid).includes("esbuild --service");

function readCommand(pid: number): string {
  try {
    // /proc separates a command's arguments with NUL bytes.
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
}

/** Ends whatever still runs the long command named by `marker`. */
async function killAll(marker: string): Promise<void> {
  for (const pid of await processesWith(marker)) process.kill(pid, "SIGKILL");
}

/** The tokens of the root-to-`leaf` path, in order. */
function pathTokens(trace: Trace, leaf: number): number[] {
  const path: number[][] = [];
  for (let id: number | null = leaf; id !== null; id = trace.nodes[id]!.parent)
    path.unshift(trace.nodes[id]!.token_ids);
  return path.flat();
}

describe.each(await agentRuntimes())("vf env serve coding-tasks --harness bash --runtime %s", (runtime) => {
  // Names the long command py-median's agent runs, so its processes can be found.
  const marker = `vf-serve-agents-${runtime}-${randomBytes(6).toString("hex")}`;
  let model: ScriptedServer;
  let program: ServedProgram;
  let client: EnvClient;
  let tasks: Map<string, TaskData>;

  beforeAll(async () => {
    model = await startCodingModel(marker);
    program = await serveProgram(["coding-tasks", "--harness", "bash", "--runtime", runtime]);
    client = new EnvClient(program.address);
    const listed = await client.tasks({ split: "eval" });
    expect(listed.envId).toBe("coding-tasks");
    tasks = new Map(listed.tasks.map((task) => [task.task, task]));
  }, 120_000);

  afterAll(async () => {
    await killAll(marker);
    client?.close();
    program?.child.kill("SIGKILL");
    await model?.close();
  });

  const endpoint = (type: "train" | "eval") => ({ type, base_url: model.url, api_key_var: "" });

  it("answers a run with the harness's trace: the agent's calls as sampled nodes with tokens, reward 1 for the fixed task", async () => {
    const task = tasks.get("js-slugify")!;
    const episode = await client.run({
      taskData: task,
      client: endpoint("train"),
      model: "scripted",
      sampling: { temperature: 0.7, max_tokens: 512 },
    });
    expect(episode.ok, JSON.stringify(episode.traces[0]?.errors)).toBe(true);
    expect(episode.env.id).toBe("coding-tasks");
    const [trace] = episode.traces;
    expect(trace!.ok).toBe(true);
    expect(trace!.task.data).toEqual(task);
    expect(trace!.agent.config).toMatchObject({ model: "scripted", harness: { id: "bash" } });
    expect(trace!.rewards).toEqual({ reward: { score: 1, weight: 1 } });
    expect(trace!.metrics).toMatchObject({ checks_passed: 1 });
    expect(trace!.stop_condition).toBe("agent_completed");
    expect(trace!.tools.map((tool) => tool.name)).toContain("bash");
    expect(trace!.info).toMatchObject({ vf: { agent: { harness: "bash", exit_code: 0 } } });

    // Two calls: the bash fix, then "Done." after its result; each names its sampled node.
    const calls = trace!.calls;
    expect(calls).toHaveLength(2);
    const replies = calls.map((call) => trace!.nodes[call.node!]!);
    expect(replies.map((node) => node.sampled)).toEqual([true, true]);
    expect(replies[0]!.message).toMatchObject({ role: "assistant", tool_calls: [{ name: "bash" }] });
    expect(replies[1]!.message).toMatchObject({ role: "assistant", content: "Done." });
    for (const [i, call] of calls.entries()) {
      expect(call).toMatchObject({ model: "scripted", endpoint: "/chat/completions", error: null });
      // The run's sampling over the agent's, with the token fields a train client asks for.
      expect(call.sampling).toMatchObject({ temperature: 0.7, logprobs: true, return_token_ids: true });
      const node = replies[i]!;
      const sampled = node.mask.filter(Boolean).length;
      expect(sampled).toBe(call.usage!.completion_tokens);
      expect(node.logprobs).toHaveLength(sampled);
      // The path to a reply is exactly what the model saw and sampled on that call.
      expect(pathTokens(trace!, call.node!)).toHaveLength(
        call.usage!.prompt_tokens + call.usage!.completion_tokens,
      );
    }
    // The second call extends the first: one branch, the tool result between the replies.
    expect(trace!.nodes[calls[1]!.node!]!.parent).not.toBeNull();
    const leaves = trace!.nodes.map((_, i) => i).filter((i) => !trace!.nodes.some((n) => n.parent === i));
    expect(leaves).toEqual([calls[1]!.node]);
    const timing = trace!.timing;
    expect(timing.setup.end).toBeLessThanOrEqual(timing.agent.start);
    expect(timing.agent.end).toBeLessThanOrEqual(timing.scoring.start + 1e-3);
    expect(timing.agent.model.duration).toBeGreaterThan(0);
  }, 120_000);

  it("scores an untouched task 0; an eval client asks for no tokens", async () => {
    const episode = await client.run({
      taskData: tasks.get("js-load-all")!,
      client: endpoint("eval"),
      model: "scripted",
    });
    expect(episode.ok).toBe(true);
    const [trace] = episode.traces;
    expect(trace!.rewards).toEqual({ reward: { score: 0, weight: 1 } });
    expect(trace!.calls).toHaveLength(1);
    expect(trace!.calls[0]!.sampling).not.toHaveProperty("return_token_ids");
  }, 120_000);

  it("ends the agent when the run is cancelled, and everything it started", async () => {
    const controller = new AbortController();
    const run = client.run({
      taskData: tasks.get("py-median")!,
      client: endpoint("eval"),
      model: "scripted",
      signal: controller.signal,
    });
    run.catch(() => {});
    // The agent's bash tool is running the long command.
    expect(await eventually(async () => (await processesWith(marker)).length > 0, 60)).toBe(true);
    controller.abort();
    await expect(run).rejects.toThrow(CancelledError);
    const agentProcesses = async () => (await descendantsOf(program.workerPid)).filter(notTsx);
    await eventually(async () => (await agentProcesses()).length === 0);
    expect(await commandsOf(await agentProcesses())).toEqual([]);
    // The bash agent runs each command in a process group of its own; the runtime ends it too.
    expect(await eventually(async () => (await processesWith(marker)).length === 0)).toBe(true);
    // The worker goes on serving.
    const again = await client.run({
      taskData: tasks.get("js-slugify")!,
      client: endpoint("eval"),
      model: "scripted",
    });
    expect(again.traces[0]!.rewards).toEqual({ reward: { score: 1, weight: 1 } });
  }, 120_000);

  it("answers v0 run_group with RolloutOutput rows and each call's tokens in trajectory", async () => {
    const task = tasks.get("js-slugify")!;
    const input = {
      example_id: task.idx,
      prompt: task.prompt,
      answer: task.answer,
      info: task.info,
      task: task.task,
    };
    const outputs = await client.runGroup({
      inputs: [input, input],
      clientConfig: {
        client_type: "openai_chat_completions_token",
        api_base_url: model.url,
        api_key_var: "",
      },
      model: "scripted",
      stateColumns: ["trajectory"],
    });
    expect(outputs.map((output) => output.reward)).toEqual([1, 1]);
    for (const output of outputs) {
      expect(output).toMatchObject({ task: "js-slugify", stop_condition: "agent_completed", error: null });
      const steps = output.trajectory as Array<{ tokens: { completion_ids: number[] } | null }>;
      expect(steps).toHaveLength(2);
      for (const step of steps) expect(step.tokens!.completion_ids.length).toBeGreaterThan(0);
      // The agent's two calls are the rollout's model time.
      expect((output.timing as { model: { spans: unknown[] } }).model.spans).toHaveLength(2);
    }
  }, 120_000);
});

describe("an environment served with a harness", () => {
  it("reverse-text --harness chat scores what reverse-text served alone scores, its trace the chat loop's", async () => {
    // A perfect model of reverse-text's eval rows.
    const { env } = await loadEnvironmentById("reverse-text");
    const model = await startScriptedServer({
      tokens: true,
      record: false,
      reply: await referenceReplies(env, { split: "eval" }),
    });
    const plain = await startEnvServer({ envId: "reverse-text", address: "tcp://127.0.0.1:0" });
    const agents = await startEnvServer({
      envId: "reverse-text",
      harness: "chat",
      runtime: "subprocess",
      address: "tcp://127.0.0.1:0",
    });
    const clients = [new EnvClient(plain.address), new EnvClient(agents.address)] as const;
    try {
      await Promise.all([plain.ready, agents.ready]);
      const rewards: number[][] = [[], []];
      for (const [i, client] of clients.entries()) {
        const { tasks } = await client.tasks({ split: "eval", numExamples: 3 });
        for (const task of tasks) {
          const episode = await client.run({
            taskData: task,
            client: { type: "train", base_url: model.url, api_key_var: "" },
            model: "scripted",
          });
          expect(episode.ok).toBe(true);
          const [trace] = episode.traces;
          rewards[i]!.push(
            Object.values(trace!.rewards).reduce((sum, r) => sum + (r ? r.score * r.weight : 0), 0),
          );
          if (i === 1) {
            expect(trace!.agent.config.harness).toEqual({ id: "chat" });
            expect(trace!.nodes.map((node) => node.message.role)).toEqual(["system", "user", "assistant"]);
            expect(trace!.nodes[2]!.mask.some(Boolean)).toBe(true);
          }
        }
      }
      expect(rewards[1]).toEqual(rewards[0]);
      expect(rewards[0]).toEqual([1, 1, 1]);
    } finally {
      for (const client of clients) client.close();
      await Promise.all([plain.close(), agents.close()]);
      await model.close();
      await env.teardown();
    }
  }, 120_000);
});
