/**
 * A client that sends runs and does not read the replies never makes the server hold replies
 * without limit: once ZeroMQ's queue for that client is full, the server keeps the results of the
 * runs it had accepted and refuses that client's new runs, so what it holds stops growing however
 * many more it sends. When the client reads again, every held reply arrives and new runs are
 * accepted. A drain waits for such a client to read what is held for it before the server
 * stops. Observed through vf's `stats` method from a second client. Real sockets, real worker
 * processes, core's scripted model server.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fixedReply, type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Dealer } from "zeromq";
import { EnvClient } from "../src/client/env-client.ts";
import { type EnvServer, startEnvServer } from "../src/server/env-server.ts";
import { pack, unpack } from "../src/wire/encoding.ts";

const MAX_QUEUED_REPLIES = 2;

let scripted: ScriptedServer;
let dir: string;
const servers: EnvServer[] = [];
const clients: Array<{ close(): void }> = [];

beforeAll(async () => {
  scripted = await startScriptedServer({ reply: fixedReply("ok"), record: false });
  dir = await mkdtemp(join(tmpdir(), "vf-slow-client-"));
});

afterAll(async () => {
  for (const client of clients) client.close();
  for (const server of servers) await server.close();
  await scripted?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A server with room for 2 replies per client in ZeroMQ, and a second client that watches its stats. */
async function serve(name: string): Promise<{ server: EnvServer; observer: EnvClient }> {
  const server = await startEnvServer({
    envId: "reverse-text",
    // A Unix socket: its kernel buffer has a fixed size (TCP's grows with use), so the replies back
    // up after the same few on every run of the test.
    address: `ipc://${join(dir, name)}`,
    maxConcurrent: 4,
    maxQueuedReplies: MAX_QUEUED_REPLIES,
  });
  servers.push(server);
  await server.ready;
  const observer = new EnvClient(server.address);
  clients.push(observer);
  return { server, observer };
}

/** A DEALER that sends runs and reads nothing until told (`read`), keeping replies by request id. */
function slowClient(address: string) {
  const socket = new Dealer({ linger: 0, receiveHighWaterMark: 1 });
  socket.connect(address);
  clients.push(socket);
  const replies = new Map<string, Record<string, unknown>>();
  return {
    replies,
    /** Sends a run of the long passage; `id` ends in its task's idx (`first-3`). */
    send: (id: string) =>
      socket.send([
        id,
        "run",
        pack({
          task_data: { idx: Number(id.split("-")[1]), prompt: passage, answer: "ko" },
          client: { type: "eval", base_url: scripted.url, api_key_var: "" },
          model: "scripted",
          sampling: {},
        }),
      ]),
    /**
     * Starts reading, one reply every `paceMs` (a client that reads, slowly); resolves once the reply
     * to `last` has come (replies come in order).
     */
    read: async (last: string, paceMs = 0) => {
      for await (const [id, data] of socket) {
        replies.set(id!.toString(), unpack(data!) as Record<string, unknown>);
        if (id!.toString() === last) return;
        if (paceMs > 0) await new Promise((resolve) => setTimeout(resolve, paceMs));
      }
    },
  };
}

/** Each run's reply is its task's episode, finished. */
function expectEpisodes(replies: Map<string, Record<string, unknown>>, ids: string[]): void {
  for (const id of ids) {
    const reply = replies.get(id);
    expect(reply, `no reply to ${id}`).toBeDefined();
    expect(reply!.success, String(reply!.error)).toBe(true);
    const episode = reply!.episode as { ok: boolean; task: { data: { idx: number } } };
    expect([episode.ok, episode.task.data.idx]).toEqual([true, Number(id.split("-")[1])]);
  }
}

// A long passage makes each reply about 100 kB (the task comes back twice, the prompt once more in
// the message graph), so the socket buffers between server and client fill after a few.
const passage = "the quick brown fox jumps over the lazy dog ".repeat(750);

describe("a client that does not read its replies", () => {
  it("gets its new runs refused once its replies back up, so the server's holdings stay bounded; reading again delivers every reply", async () => {
    const { observer } = await serve("first");
    const { send, read, replies } = slowClient(observer.address);
    // A burst of runs, all accepted (they arrive long before the first finishes); their replies
    // fill ZeroMQ's queue for the client, the socket buffers and the client's own queue, and the
    // rest wait in the server.
    const first = Array.from({ length: 16 }, (_, i) => `first-${i}`);
    for (const id of first) await send(id);
    let stats = await settled(observer, first.length);
    expect(stats.runs_refused).toBe(0);
    const held = stats.held_replies;
    expect(held).toBeGreaterThan(0);
    expect(stats.backlogged_clients).toBe(1);

    // Many more runs while the client still does not read: refused, and what the server holds
    // grows by at most the replies ZeroMQ would queue for it, whatever the number sent.
    const second = Array.from({ length: 40 }, (_, i) => `second-${i}`);
    for (const id of second) await send(id);
    stats = await settled(observer, first.length + second.length);
    expect(stats.runs_refused).toBe(second.length);
    expect(stats.held_replies).toBeLessThanOrEqual(held + MAX_QUEUED_REPLIES);
    expect(stats.dropped_replies).toBe(second.length - MAX_QUEUED_REPLIES);

    // Reading again: every accepted run's episode arrives, then the refusals the server kept; and
    // once nothing is held for it, the client is served again (replies come in order, so when the
    // last run's arrives, every earlier one has).
    const reading = read("after-99");
    await until(async () => (await observer.stats()).held_replies === 0);
    await send("after-99");
    await reading;
    const after = replies.get("after-99")!;
    expect(after.success, String(after.error)).toBe(true);
    expectEpisodes(replies, first);
    const refusals = second.flatMap((id) => (replies.has(id) ? [replies.get(id)!] : []));
    expect(refusals).toHaveLength(MAX_QUEUED_REPLIES);
    for (const refusal of refusals) {
      expect(refusal.success).toBe(false);
      expect(refusal.error).toMatch(
        /^ClientBacklogError: \d+ replies to this client are waiting for it to read them: read its replies before sending more runs/,
      );
    }
  }, 300_000);

  it("is waited for by a drain: the replies held for it, and those ZeroMQ queues for it, reach it", async () => {
    const { server, observer } = await serve("drained");
    const { send, read, replies } = slowClient(observer.address);
    const runs = Array.from({ length: 12 }, (_, i) => `drained-${i}`);
    for (const id of runs) await send(id);
    expect((await settled(observer, runs.length)).held_replies).toBeGreaterThan(0);

    const draining = server.drain();
    // Every run is answered, the workers are stopped, and the replies still wait for the client.
    await until(async () => {
      const stats = await statsWithin(observer, 5_000);
      return stats.state === "draining" && stats.workers.length === 0 && stats.held_replies > 0;
    });
    // A client that reads slowly: the last replies are still in ZeroMQ's queue when nothing is
    // held any more, and go out after the socket is closed.
    const reading = read(runs.at(-1)!, 100);
    await draining;
    await within(reading, 60_000, () => `${replies.size} of ${runs.length} replies came`);
    expectEpisodes(replies, runs);
  }, 300_000);
});

/** Waits until the server has taken all `sent` runs and answered the ones it accepted; returns its stats. */
async function settled(observer: EnvClient, sent: number) {
  let stats = await observer.stats();
  await until(async () => {
    stats = await observer.stats();
    return stats.runs_accepted + stats.runs_refused >= sent && stats.accepted === 0;
  });
  return stats;
}

async function until(condition: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The server's stats, or a failure when it does not answer within `ms` (it has stopped). */
function statsWithin(observer: EnvClient, ms: number) {
  return within(observer.stats(), ms, () => `the server did not answer stats within ${ms} ms`);
}

function within<T>(promise: Promise<T>, ms: number, failure: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(failure())), ms);
    }),
  ]);
}
