/**
 * The env server with real sockets and real worker processes: reverse-text served to the
 * TypeScript client over v1 and v0, against core's scripted OpenAI-compatible server.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import type { ScriptedServer } from "@vf-rl/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Dealer } from "zeromq";
import { EnvClient, EnvServerRequestError } from "../client/env-client.ts";
import { pack, unpack } from "../wire/encoding.ts";
import { fromRolloutOutput } from "../wire/rollout-output.ts";
import { type EnvServer, startEnvServer } from "./env-server.ts";
import { startTimedModel } from "./test-support.ts";

let scripted: ScriptedServer;
let server: EnvServer;
let client: EnvClient;

beforeAll(async () => {
  scripted = await startTimedModel(1);
  server = await startEnvServer({ envId: "reverse-text", address: "tcp://127.0.0.1:0" });
  client = new EnvClient(server.address);
}, 60_000);

afterAll(async () => {
  client?.close();
  await server?.close();
  await scripted?.close();
});

const endpoint = () => ({ base_url: scripted.url, api_key_var: "", type: "train" as const });

describe("vf env server (v1)", () => {
  it("answers health from the front end, before any worker has loaded", async () => {
    const other = await startEnvServer({ envId: "reverse-text", address: "tcp://127.0.0.1:0" });
    const probe = new EnvClient(other.address);
    try {
      expect(await probe.health()).toBe(true);
      expect(other.workers().some((w) => w.ready)).toBe(false);
      await other.ready;
    } finally {
      probe.close();
      await other.close();
    }
  }, 60_000);

  it("runs a task from `tasks` into an episode with tokens, weighted rewards and metrics", async () => {
    await server.ready;
    const { envId, tasks } = await client.tasks({ split: "eval", numExamples: 2 });
    expect(envId).toBe("reverse-text");
    expect(tasks).toHaveLength(2);
    const episode = await client.run({ taskData: tasks[0]!, client: endpoint(), model: "scripted" });
    const trace = episode.traces[0]!;
    expect(episode.ok).toBe(true);
    expect(trace.task.data).toEqual(tasks[0]);
    expect(trace.stop_condition).toBe("agent_completed");
    expect(trace.rewards).toEqual({ lcs_reward: { score: expect.any(Number), weight: 1 } });
    expect(Object.keys(trace.metrics).sort()).toEqual(["format", "num_turns"]);
    expect(trace.nodes.map((n) => [n.parent, n.message.role, n.sampled])).toEqual([
      [null, "system", false],
      [0, "user", false],
      [1, "assistant", true],
    ]);
    const assistant = trace.nodes[2]!;
    const sampled = assistant.mask.filter(Boolean).length;
    expect(sampled).toBeGreaterThan(0);
    expect(assistant.logprobs).toHaveLength(sampled);
    expect(trace.calls).toHaveLength(1);
    expect(trace.calls[0]).toMatchObject({ node: 2, model: "scripted", finish_reason: "stop", error: null });
    expect(trace.calls[0]!.usage!.completion_tokens).toBe(sampled);
    expect(trace.calls[0]!.time.end).toBeGreaterThanOrEqual(trace.calls[0]!.time.start);
  }, 30_000);

  it("matches out-of-order replies to their requests", async () => {
    const { tasks } = await client.tasks({ split: "train", numExamples: 40 });
    const episodes = await Promise.all(
      tasks.map((task) => client.run({ taskData: task, client: endpoint(), model: "scripted" })),
    );
    expect(episodes.map((e) => e.task.data.idx)).toEqual(tasks.map((t) => t.idx));
  }, 30_000);

  it("cancels a running rollout, and answers a cancel of an unknown id with cancelled: false", async () => {
    const raw = await rawClient(server.address);
    try {
      const run = raw.request("run", {
        task_data: { idx: 1, prompt: "a slow passage" },
        client: endpoint(),
        model: "scripted",
        sampling: {},
      });
      // Wait until the rollout is running in a worker, then cancel it.
      await until(() => server.workers().some((w) => w.active > 0));
      const cancelled = await raw.request("cancel", { request_id: run.id }).reply;
      expect(cancelled).toEqual({ success: true, error: null, cancelled: true });
      expect(await run.reply).toEqual({ success: false, error: "Cancelled: rollout aborted" });
      const unknown = await raw.request("cancel", { request_id: "no-such-run" }).reply;
      expect(unknown).toEqual({ success: true, error: null, cancelled: false });
    } finally {
      raw.close();
    }
  }, 30_000);

  it("answers an unknown method and a malformed payload with errors, and keeps serving", async () => {
    const raw = await rawClient(server.address);
    try {
      expect(await raw.request("explode", {}).reply).toEqual({
        success: false,
        error: "unknown method 'explode'",
      });
      const garbage = await raw.send("run", new Uint8Array([0xc1, 0xff, 0x00])).reply;
      expect(garbage.success).toBe(false);
      expect(garbage.error).toMatch(/^MalformedPayloadError: the payload is not msgpack/);
      const invalid = await raw.request("run", { task_data: {}, model: "scripted" }).reply;
      expect(invalid.error).toMatch(/^ValidationError: invalid RunRequest/);
      expect(await client.health()).toBe(true);
    } finally {
      raw.close();
    }
  }, 30_000);

  it("names vf's version in its stats, for an operator asking what runs there", async () => {
    const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    const stats = await client.stats();
    expect(stats.vf_version).toBe(version);
    expect(stats.state).toBe("running");
  });

  it("fails a run with a clear error when the task has no prompt", async () => {
    const run = client.run({ taskData: { idx: 3 }, client: endpoint(), model: "scripted" });
    await expect(run).rejects.toBeInstanceOf(EnvServerRequestError);
    await expect(run).rejects.toThrow(
      "TaskDataError: task_data has no prompt: send prompt as a string or messages",
    );
  });
});

describe("the worker pool", () => {
  it("adds a worker when accepted runs reach 90% of capacity, and drains on request: accepted runs finish, new ones are refused", async () => {
    const pool = await startEnvServer({
      envId: "reverse-text",
      address: "tcp://127.0.0.1:0",
      maxWorkers: 2,
      maxConcurrent: 2,
    });
    const other = new EnvClient(pool.address);
    try {
      await pool.ready;
      const task = { idx: 1, prompt: "a pause first" };
      const accepted = [1, 2, 3].map(() =>
        other.run({ taskData: task, client: endpoint(), model: "scripted" }),
      );
      await until(() => pool.workers().length === 2);
      await until(() => pool.workers().some((w) => w.active > 0));
      const draining = pool.drain();
      const refused = other.run({ taskData: task, client: endpoint(), model: "scripted" });
      await expect(refused).rejects.toThrow(/^ServerDrainingError: this env server is shutting down/);
      const episodes = await Promise.all(accepted);
      expect(episodes.every((e) => e.ok)).toBe(true);
      await draining;
      expect(pool.workers()).toEqual([]);
    } finally {
      other.close();
      await pool.close();
    }
  }, 60_000);
});

describe("vf env server (v0)", () => {
  it("runs and scores a group; its RolloutOutput rows read back as vf's saved rows", async () => {
    const prompt = [{ role: "user", content: "abc def" }];
    const outputs = await client.runGroup({
      inputs: [0, 1, 2].map(() => ({ prompt, example_id: 5, answer: "fed cba" })),
      clientConfig: { api_base_url: scripted.url, api_key_var: "" },
      model: "scripted",
      stateColumns: ["trajectory"],
    });
    expect(outputs).toHaveLength(3);
    expect(outputs[0]).toMatchObject({ example_id: 5, answer: "fed cba", lcs_reward: expect.any(Number) });
    const records = outputs.map((output) => fromRolloutOutput(output, ["trajectory"]));
    expect(records.map((r) => r.rollout_index)).toEqual([0, 1, 2]);
    expect(records[0]!.trajectory[0]!.tokens!.completion_ids.length).toBeGreaterThan(0);
    expect(records[0]!.timing!.model_ms).toBeGreaterThan(0);
    expect(await client.ping()).toBe(true);
  }, 30_000);
});

/** A DEALER that sends hand-made frames, for what the typed client never sends. */
async function rawClient(address: string) {
  const socket = new Dealer({ linger: 0 });
  socket.connect(address);
  const waiting = new Map<string, (reply: Record<string, unknown>) => void>();
  void (async () => {
    try {
      for await (const [id, data] of socket)
        waiting.get(id!.toString())?.(unpack(data!) as Record<string, unknown>);
    } catch {}
  })();
  const send = (method: string, payload: Uint8Array) => {
    const id = `raw-${randomUUID()}`;
    const reply = new Promise<Record<string, unknown>>((resolve) => waiting.set(id, resolve));
    void socket.send([id, method, payload]);
    return { id, reply };
  };
  return {
    send,
    request: (method: string, body: unknown) => send(method, pack(body)),
    close: () => socket.close(),
  };
}

async function until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
