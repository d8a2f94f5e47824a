/**
 * A Python client written from the protocol (python/vf-bridge, on Debian's python3-zmq and
 * python3-msgpack) against the real `vf env serve` in another process, and the bridge's facade
 * over an in-process client object. The Python tests are unittest modules; this starts the servers
 * they talk to and passes them the addresses.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { contentText } from "@vf-rl/core";
import { type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EnvClient } from "../src/client/env-client.ts";
import { startTimedModel } from "../src/server/test-support.ts";
import { agentRuntimes, processesWith, startCodingModel } from "./agent-support.ts";

const repo = fileURLToPath(new URL("../../..", import.meta.url));
const bridge = join(repo, "python", "vf-bridge");
const vf = join(repo, "packages", "cli", "bin", "vf.js");
const PYTHON = "/usr/bin/python3";
/** The vf version the server names in its stats: @vf-rl/env-server's. */
const version: string = JSON.parse(
  readFileSync(join(repo, "packages", "env-server", "package.json"), "utf8"),
).version;

let scripted: ScriptedServer;
const servers: ChildProcess[] = [];

beforeAll(async () => {
  scripted = await startTimedModel(1.5);
});

afterAll(async () => {
  for (const child of servers) child.kill("SIGKILL");
  await scripted?.close();
});

/** Starts `vf env serve` on a free port; resolves with its address and, when asked, its first worker's pid. */
async function serve(
  args: string[],
  waitForWorker: boolean,
): Promise<{ address: string; workerPid?: number }> {
  const child = spawn(process.execPath, [vf, "env", "serve", ...args, "--address", "tcp://127.0.0.1:0"], {
    cwd: repo,
    stdio: ["ignore", "pipe", "pipe"],
  });
  servers.push(child);
  let stderr = "";
  const workerPid = new Promise<number>((resolve) => {
    createInterface({ input: child.stderr! }).on("line", (line) => {
      stderr += `${line}\n`;
      const ready = /^worker 0 ready \(pid (\d+)\)/.exec(line);
      if (ready) resolve(Number(ready[1]));
    });
  });
  const address = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`vf env serve exited (${code}): ${stderr}`)));
  });
  return waitForWorker ? { address, workerPid: await workerPid } : { address };
}

function python(
  modules: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(PYTHON, ["-m", "unittest", "-v", ...modules], {
      cwd: bridge,
      env: { ...process.env, PYTHONPATH: bridge, VF_MODEL_URL: scripted.url, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("a Python client of vf env serve", () => {
  it("speaks v1 and v0 to reverse-text: 512 concurrent runs, out-of-order replies, cancels, errors, a killed worker, the facade", async () => {
    const { address, workerPid } = await serve(["reverse-text"], true);
    const run = await python(
      ["tests.test_v1_protocol", "tests.test_v0_protocol", "tests.test_facade", "tests.test_server_version"],
      {
        VF_ADDRESS: address,
        VF_WORKER_PID: String(workerPid),
        VF_VERSION: version,
      },
    );
    expect(run.output).toMatch(/Ran 14 tests/);
    expect(run.code, run.output).toBe(0);
  }, 240_000);

  it("reads a tool environment's v1 episode as verifiers' WireEpisode and prime-rl read it", async () => {
    // The model calls calculate once, then answers with what the tool returned.
    const toolModel = await startScriptedServer({
      tokens: true,
      record: false,
      reply: (request) => {
        const last = request.messages.at(-1)!;
        if (last.role === "tool") return `The product is \\boxed{${contentText(last.content)}}.`;
        return {
          type: "message",
          content: null,
          toolCalls: [{ name: "calculate", arguments: { expression: "6 * 7" } }],
        };
      },
    });
    try {
      const { address } = await serve(["gsm8k-calculator"], false);
      const run = await python(["tests.test_v1_episode"], {
        VF_ADDRESS: address,
        VF_MODEL_URL: toolModel.url,
      });
      expect(run.output).toMatch(/Ran 7 tests/);
      expect(run.code, run.output).toBe(0);
    } finally {
      await toolModel.close();
    }
  }, 120_000);

  it("gets a served taskset's episodes: the bash agent's trace, trained by prime-rl's branch rule; a cancel ends the agent", async () => {
    const marker = `vf-python-agents-${randomBytes(6).toString("hex")}`;
    const model = await startCodingModel(marker);
    const runtime = (await agentRuntimes()).at(-1)!;
    try {
      const { address } = await serve(["coding-tasks", "--harness", "bash", "--runtime", runtime], false);
      const run = await python(["tests.test_v1_agents"], {
        VF_ADDRESS: address,
        VF_MODEL_URL: model.url,
        VF_MARKER: marker,
        VF_AGENT_RUNTIME: runtime,
      });
      expect(run.output).toMatch(/Ran 5 tests/);
      expect(run.code, run.output).toBe(0);
    } finally {
      // The subprocess runtime leaves the cancelled agent's command running (it isolates nothing).
      for (const pid of await processesWith(marker)) process.kill(pid, "SIGKILL");
      await model.close();
    }
  }, 180_000);

  it("gets health answered while the workers load, and failing environments as errors", async () => {
    const env = join(repo, "packages", "env-server", "test", "fixtures", "faulty-env");
    // vf env serve prints its address only once the environment has loaded, so this picks the
    // port and starts the Python client as soon as health answers, while the worker still loads.
    const address = `tcp://127.0.0.1:${await freePort()}`;
    const child = spawn(
      process.execPath,
      [vf, "env", "serve", env, "-a", JSON.stringify({ loadDelayMs: 3000 }), "--address", address],
      { cwd: repo, stdio: ["ignore", "ignore", "inherit"] },
    );
    servers.push(child);
    const probe = new EnvClient(address);
    try {
      await probe.waitForStartup({ timeoutSeconds: 60 });
    } finally {
      probe.close();
    }
    const run = await python(["tests.test_v1_faults"], { VF_ADDRESS: address });
    expect(run.output).toMatch(/Ran 3 tests/);
    expect(run.code, run.output).toBe(0);
  }, 120_000);
});

/** A TCP port free on loopback now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
