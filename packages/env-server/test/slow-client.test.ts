/**
 * A client that sends runs and does not read the replies never makes the server hold replies
 * without limit: once ZeroMQ's queue for that client is full, the server keeps the results of the
 * runs it had accepted and refuses that client's new runs, so what it holds stops growing however
 * many more it sends. When the client reads again, every held reply arrives and new runs are
 * accepted. Observed through vf's `stats` method from a second client. Real sockets, real worker
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
let server: EnvServer;
let observer: EnvClient;
let dir: string;

beforeAll(async () => {
  scripted = await startScriptedServer({ reply: fixedReply("ok"), record: false });
  dir = await mkdtemp(join(tmpdir(), "vf-slow-client-"));
  server = await startEnvServer({
    envId: "reverse-text",
    // A Unix socket: its kernel buffer has a fixed size (TCP's grows with use), so the replies back
    // up after the same few on every run of the test.
    address: `ipc://${join(dir, "server")}`,
    maxConcurrent: 4,
    maxQueuedReplies: MAX_QUEUED_REPLIES,
  });
  await server.ready;
  observer = new EnvClient(server.address);
}, 60_000);

afterAll(async () => {
  observer?.close();
  await server?.close();
  await scripted?.close();
  await rm(dir, { recursive: true, force: true });
});

// A long passage makes each reply about 100 kB (the task comes back twice, the prompt once more in
// the message graph), so the socket buffers between server and client fill after a few.
const passage = "the quick brown fox jumps over the lazy dog ".repeat(750);

describe("a client that does not read its replies", () => {
  it("gets its new runs refused once its replies back up, so the server's holdings stay bounded; reading again delivers every reply", async () => {
    const slow = new Dealer({ linger: 0, receiveHighWaterMark: 1 });
    slow.connect(server.address);
    const send = (id: string) =>
      slow.send([
        id,
        "run",
        pack({
          task_data: { idx: Number(id.split("-")[1]), prompt: passage, answer: "ko" },
          client: { type: "eval", base_url: scripted.url, api_key_var: "" },
          model: "scripted",
          sampling: {},
        }),
      ]);
    try {
      // A burst of runs, all accepted (they arrive long before the first finishes); their replies
      // fill ZeroMQ's queue for the client, the socket buffers and the client's own queue, and the
      // rest wait in the server.
      const first = Array.from({ length: 16 }, (_, i) => `first-${i}`);
      for (const id of first) await send(id);
      let stats = await settled(first.length);
      expect(stats.runs_refused).toBe(0);
      const held = stats.held_replies;
      expect(held).toBeGreaterThan(0);
      expect(stats.backlogged_clients).toBe(1);

      // Many more runs while the client still does not read: refused, and what the server holds
      // grows by at most the replies ZeroMQ would queue for it, whatever the number sent.
      const second = Array.from({ length: 40 }, (_, i) => `second-${i}`);
      for (const id of second) await send(id);
      stats = await settled(first.length + second.length);
      expect(stats.runs_refused).toBe(second.length);
      expect(stats.held_replies).toBeLessThanOrEqual(held + MAX_QUEUED_REPLIES);
      expect(stats.dropped_replies).toBe(second.length - MAX_QUEUED_REPLIES);

      // Reading again: every accepted run's episode arrives, then the refusals the server kept; and
      // once nothing is held for it, the client is served again (replies come in order, so when the
      // last run's arrives, every earlier one has).
      const replies = new Map<string, Record<string, unknown>>();
      const reading = (async () => {
        for await (const [id, data] of slow) {
          replies.set(id!.toString(), unpack(data!) as Record<string, unknown>);
          if (id!.toString() === "after-99") return;
        }
      })();
      await until(async () => (await observer.stats()).held_replies === 0);
      await send("after-99");
      await reading;
      const after = replies.get("after-99")!;
      expect(after.success, String(after.error)).toBe(true);
      for (const id of first) {
        const reply = replies.get(id);
        expect(reply, `no reply to ${id}`).toBeDefined();
        expect(reply!.success, String(reply!.error)).toBe(true);
        const episode = reply!.episode as { ok: boolean; task: { data: { idx: number } } };
        expect([episode.ok, episode.task.data.idx]).toEqual([true, Number(id.split("-")[1])]);
      }
      const refusals = second.flatMap((id) => (replies.has(id) ? [replies.get(id)!] : []));
      expect(refusals).toHaveLength(MAX_QUEUED_REPLIES);
      for (const refusal of refusals) {
        expect(refusal.success).toBe(false);
        expect(refusal.error).toMatch(
          /^ClientBacklogError: \d+ replies to this client are waiting for it to read them: read its replies before sending more runs/,
        );
      }
    } finally {
      slow.close();
    }
  }, 300_000);
});

/** Waits until the server has taken all `sent` runs and answered the ones it accepted; returns its stats. */
async function settled(sent: number) {
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
