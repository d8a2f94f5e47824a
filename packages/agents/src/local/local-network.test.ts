// The local runtime's network: loopback only, where the interception server's address and the
// task's allowed hosts lead to the real ones through the runtime's forwarder; every other address,
// port and name fails inside. Local HTTP servers stand in for the interception server and hosts.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { NetworkPolicy } from "@vf-rl/core/agents";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { taskWith } from "../runtime.contract.ts";
import { localRuntime } from "./local-runtime.ts";
import { scratchFolder } from "./test-support.ts";

let scratch: Awaited<ReturnType<typeof scratchFolder>>;
const servers: Server[] = [];
/** Ports of the stand-ins: the interception server, and three hosts. */
let interception: number;
let allowed: number;
let blocked: number;
let unlisted: number;
beforeAll(async () => {
  scratch = await scratchFolder("network");
  [interception, allowed, blocked, unlisted] = (await Promise.all(
    ["interception", "allowed", "blocked", "unlisted"].map(async (name) => {
      const server = createServer((request, response) => response.end(`${name} ${request.url}`));
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      return (server.address() as AddressInfo).port;
    }),
  )) as [number, number, number, number];
});
afterAll(async () => {
  for (const server of servers) server.close();
  await scratch.remove();
});

/** A node program that fetches each URL and prints its answer or its error's code. */
const FETCH = `for (const url of process.argv.slice(1)) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
    console.log(url, response.status, await response.text());
  } catch (error) {
    console.log(url, "failed", error.cause?.code ?? error.name);
  }
}`;

/** What fetching `urls` prints inside a runtime with `network`. */
async function fetchInside(network: Partial<NetworkPolicy>, urls: string[]): Promise<string[]> {
  const factory = localRuntime({ tempDir: scratch.path, sandboxUid: 64103 });
  const runtime = await factory.create(taskWith({}, { network: { allow: [], block: [], ...network } }), {
    interceptionUrl: `http://127.0.0.1:${interception}/v1`,
  });
  try {
    const result = await runtime.exec(["node", "--input-type=module", "-e", FETCH, ...urls]);
    expect(result.exitCode).toBe(0);
    return result.stdout.trim().split("\n");
  } finally {
    await runtime.close();
  }
}

describe("the local runtime's network", () => {
  it("reaches the interception server at its own URL, and no other port of this machine", async () => {
    const lines = await fetchInside({}, [
      `http://127.0.0.1:${interception}/v1/models`,
      `http://localhost:${interception}/v1/chat/completions`,
      `http://127.0.0.1:${unlisted}/`,
      `http://localhost:${allowed}/`,
    ]);
    expect(lines).toEqual([
      `http://127.0.0.1:${interception}/v1/models 200 interception /v1/models`,
      `http://localhost:${interception}/v1/chat/completions 200 interception /v1/chat/completions`,
      `http://127.0.0.1:${unlisted}/ failed ECONNREFUSED`,
      `http://localhost:${allowed}/ failed ECONNREFUSED`,
    ]);
  });

  it("reaches an allowed host:port, not a blocked one, nor any other address or name", async () => {
    const lines = await fetchInside(
      {
        allow: [`127.0.0.1:${allowed}`, `localhost:${blocked}`, "api.example.invalid"],
        block: [`localhost:${blocked}`],
      },
      [
        `http://127.0.0.1:${allowed}/data`,
        `http://localhost:${blocked}/`,
        `http://127.0.0.1:${blocked}/`,
        "http://1.1.1.1/",
        "http://registry.npmjs.org/",
      ],
    );
    expect(lines).toEqual([
      `http://127.0.0.1:${allowed}/data 200 allowed /data`,
      `http://localhost:${blocked}/ failed ECONNREFUSED`,
      `http://127.0.0.1:${blocked}/ failed ECONNREFUSED`,
      "http://1.1.1.1/ failed ENETUNREACH",
      "http://registry.npmjs.org/ failed ENOTFOUND",
    ]);
  });

  it("names an allowed host in its /etc/hosts, on a loopback address of its own", async () => {
    const factory = localRuntime({ tempDir: scratch.path, sandboxUid: 64103 });
    const runtime = await factory.create(
      taskWith({}, { network: { allow: ["api.example.invalid:8443"], block: [] } }),
      {
        interceptionUrl: `http://127.0.0.1:${interception}/v1`,
      },
    );
    try {
      const result = await runtime.exec(["getent", "hosts", "api.example.invalid"]);
      expect(result.stdout).toBe("127.77.0.2      api.example.invalid\n");
    } finally {
      await runtime.close();
    }
  });
});
