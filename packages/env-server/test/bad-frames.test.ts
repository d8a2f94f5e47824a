/**
 * Messages a client should never send, sent as raw ZeroMQ frames: too many frames, too few, and
 * requests over the server's size limit. Each that carries a request id is answered under it with
 * an error saying what was wrong, instead of leaving the client to wait for its own timeout, and
 * the server keeps serving. Real sockets, a real worker process.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Dealer } from "zeromq";
import { EnvClient } from "../src/client/env-client.ts";
import { type EnvServer, startEnvServer } from "../src/server/env-server.ts";
import { pack, unpack } from "../src/wire/encoding.ts";

const MiB = 1024 * 1024;

let server: EnvServer;
let client: EnvClient;
const sockets: Dealer[] = [];

beforeAll(async () => {
  server = await startEnvServer({
    envId: "reverse-text",
    address: "tcp://127.0.0.1:0",
    maxMessageBytes: MiB,
  });
  client = new EnvClient(server.address);
}, 60_000);

afterAll(async () => {
  for (const socket of sockets) socket.close();
  client?.close();
  await server?.close();
});

/** A DEALER that sends hand-made frames and resolves each reply by the id frame it came back under. */
function rawClient() {
  const socket = new Dealer({ linger: 0 });
  sockets.push(socket);
  socket.connect(server.address);
  const waiting = new Map<string, (reply: { frames: number; body: Record<string, unknown> }) => void>();
  void (async () => {
    try {
      for await (const [id, ...rest] of socket)
        waiting.get(id!.toString())?.({
          frames: rest.length + 1,
          body: unpack(rest[0]!) as Record<string, unknown>,
        });
    } catch {}
  })();
  return {
    socket,
    /** Sends `[id, ...frames]` with a fresh id; resolves with the reply under that id. */
    send(...frames: Array<string | Uint8Array>) {
      const id = `raw-${randomUUID()}`;
      const reply = new Promise<{ frames: number; body: Record<string, unknown> }>((resolve) =>
        waiting.set(id, resolve),
      );
      void socket.send([id, ...frames]);
      return reply;
    },
  };
}

const FRAMING =
  "v1 sends [request_id, method, payload], v0 [request_id, payload]: send one request per message in one of them";

describe("a message in neither protocol's framing", () => {
  it("a v1 run with an extra frame is answered under its id", async () => {
    const reply = await rawClient().send("run", pack({}), "extra");
    expect(reply).toEqual({
      frames: 2,
      body: {
        success: false,
        error: `MalformedMessageError: a message of 4 frames is neither protocol's: ${FRAMING}`,
      },
    });
  });

  it("six frames are answered under the first", async () => {
    const reply = await rawClient().send("run", pack({}), "a", "b", "c");
    expect(reply.body.error).toBe(
      `MalformedMessageError: a message of 6 frames is neither protocol's: ${FRAMING}`,
    );
  });

  it("a message of only an id (a v0 request without its payload) is answered under it", async () => {
    const reply = await rawClient().send();
    expect(reply.body).toEqual({
      success: false,
      error: `MalformedMessageError: a message of 1 frame is neither protocol's: ${FRAMING}`,
    });
  });

  it("a v0 request with an extra frame reads as an unknown v1 method, named briefly", async () => {
    const payload = pack({ request_type: "run_rollout", padding: "x".repeat(10_000) });
    const reply = await rawClient().send(payload, "extra");
    expect(reply.body.success).toBe(false);
    expect(reply.body.error).toMatch(/^unknown method (['"]).*\1\.\.\. \(10\d{3} bytes\)$/s);
    expect(String(reply.body.error).length).toBeLessThan(200);
  });

  it("keeps serving the well-formed requests of the same client", async () => {
    const raw = rawClient();
    await raw.send("a", "b", "c", "d", "e");
    expect((await raw.send("health", pack({}))).body).toEqual({ success: true, error: null });
    expect(await client.ping()).toBe(true);
  });
});

describe("a request over the server's size limit (maxMessageBytes, here 1 MiB)", () => {
  it("is refused under its id with the sizes and what to do, without reaching a worker", async () => {
    await server.ready;
    const body = pack({ task_data: { idx: 0, prompt: "x".repeat(1.5 * MiB) }, client: {}, model: "m" });
    const before = await client.stats();
    const reply = await rawClient().send("run", body);
    expect(reply.body.success).toBe(false);
    expect(reply.body.error).toMatch(
      /^MessageTooLargeError: this request is 1\.5 MiB, over this env server's limit of 1 MiB: send a smaller request, or raise the server's limit \(vf env serve --max-message-mib\)$/,
    );
    const after = await client.stats();
    expect(after.runs_accepted).toBe(before.runs_accepted);
    expect(after.runs_refused).toBe(before.runs_refused + 1);
    expect(after.limits.max_message_bytes).toBe(MiB);
  });

  it("is refused in v0's words to a v0 client", async () => {
    const payload = pack({ request_type: "run_group", group_inputs: [{ prompt: "x".repeat(1.2 * MiB) }] });
    const reply = await rawClient().send(payload);
    expect(reply.body.error).toMatch(
      /^MessageTooLargeError\("this request is 1\.2 MiB, over .* \(vf env serve --max-message-mib\)"\)$/,
    );
  });

  it("over twice the limit, is cut off by ZeroMQ before the broker reads it: the connection drops", async () => {
    const raw = rawClient();
    const dropped = new Promise<void>((resolve) => raw.socket.events.on("disconnect", () => resolve()));
    void raw.send("run", new Uint8Array(3 * MiB));
    await dropped;
    // The client reconnects, and the server serves it and everyone else as before.
    expect((await raw.send("health", pack({}))).body).toEqual({ success: true, error: null });
    expect(await client.health()).toBe(true);
  });

  it("is 64 MiB unless set", async () => {
    const other = await startEnvServer({ envId: "reverse-text", address: "tcp://127.0.0.1:0" });
    const probe = new EnvClient(other.address);
    try {
      expect((await probe.stats()).limits.max_message_bytes).toBe(64 * MiB);
    } finally {
      probe.close();
      await other.close();
    }
  });
});
