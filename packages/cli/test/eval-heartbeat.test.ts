// `vf eval --heartbeat-url`, through the real binary: an uptime monitor on loopback receives a GET
// each time rollouts finish (never more than the groups finished), and a monitor that fails does
// not stop the run.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import { runVf } from "@vf-rl/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ITEMS_ENV, writeEnvironment } from "./fixture-envs.ts";
import { type TempProject, tempProject } from "./temp-project.ts";

interface Monitor {
  url: string;
  pings: Array<{ method: string; path: string; body: string }>;
  close(): Promise<void>;
}

/** An uptime monitor's ping endpoint that answers every request with `status`. */
async function startMonitor(status: number): Promise<Monitor> {
  const pings: Monitor["pings"] = [];
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on("end", () => {
      pings.push({ method: request.method ?? "", path: request.url ?? "", body });
      response.writeHead(status).end("OK");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/ping/eval-run`,
    pings,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let project: TempProject;
let model: ScriptedServer;

beforeAll(async () => {
  project = await tempProject();
  await writeEnvironment(project.dir, "items", ITEMS_ENV);
  model = await startScriptedServer({ latencySeconds: 0.02 });
});
afterAll(async () => {
  await model.close();
  await project.remove();
});

const evalItems = (flags: string[]) =>
  runVf(["eval", "items", "-m", "scripted", "-b", model.url, "-n", "6", "-r", "2", ...flags], {
    cwd: project.dir,
  });

describe("--heartbeat-url", () => {
  it("sends the monitor a GET as rollouts finish", async () => {
    const monitor = await startMonitor(200);
    try {
      const run = await evalItems(["--heartbeat-url", monitor.url]);
      expect(run.code).toBe(0);
      expect(monitor.pings.length).toBeGreaterThanOrEqual(1);
      // One per finished group at most: a ping still waiting is not doubled.
      expect(monitor.pings.length).toBeLessThanOrEqual(6);
      for (const ping of monitor.pings)
        expect(ping).toEqual({ method: "GET", path: "/ping/eval-run", body: "" });
      expect(run.stderr).not.toMatch(/heartbeat/);
    } finally {
      await monitor.close();
    }
  });

  it("goes on when the monitor fails, and says so once, then counts the failures", async () => {
    const monitor = await startMonitor(500);
    try {
      const run = await evalItems(["--heartbeat-url", monitor.url]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("reward: avg - 1, std - 0");
      expect(monitor.pings.length).toBeGreaterThanOrEqual(1);
      expect(run.stderr.match(/failures are counted at the end/g)).toHaveLength(1);
      expect(run.stderr).toContain(`heartbeat to ${monitor.url} failed (HTTP 500)`);
      expect(run.stderr).toContain(`heartbeat: ${monitor.pings.length} of ${monitor.pings.length} pings`);
    } finally {
      await monitor.close();
    }
  });

  it("refuses what is not an http URL", async () => {
    const run = await evalItems(["--heartbeat-url", "hc-ping.com/abc"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--heartbeat-url must be a URL, got "hc-ping.com\/abc"/);
  });
});
