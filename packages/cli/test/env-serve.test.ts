// `vf env serve` through the real vf binary: the API keys it sends are only those its operator
// names with --key-var (a run names the variable and the URL, and anyone who reaches the server can
// send one), its log says what it refused and how to allow it, and `vf eval --env-server` names its
// own key for the pool it starts.
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import { EnvClient } from "@vf-rl/env-server";
import { runVf, VF_BIN } from "@vf-rl/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const NAMED = "VF_TEST_NAMED_KEY";
const UNNAMED = "VF_TEST_UNNAMED_SECRET";
const secrets = { [NAMED]: "named-key-value", [UNNAMED]: "unnamed-secret-value" };

let capture: ScriptedServer;
const children: ChildProcess[] = [];

beforeAll(async () => {
  capture = await startScriptedServer();
});

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await capture?.close();
});

/** `vf env serve` with `args`; resolves with the address it prints and its stderr lines so far (they grow). */
async function serve(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ address: string; stderr: string[] }> {
  const child = spawn(process.execPath, [VF_BIN, "env", "serve", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1", ...env },
  });
  children.push(child);
  const stderr: string[] = [];
  createInterface({ input: child.stderr! }).on("line", (line) => stderr.push(line));
  const address = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`vf env serve exited with ${code}: ${stderr.join("\n")}`)));
  });
  return { address, stderr };
}

async function until(condition: () => boolean, what: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("vf env serve --key-var", () => {
  it("sends the named variable's value, and HOME or any other secret of its environment as EMPTY, saying so in its log", async () => {
    const { address, stderr } = await serve(
      ["reverse-text", "--address", "tcp://127.0.0.1:0", "--key-var", NAMED],
      secrets,
    );
    const client = new EnvClient(address);
    try {
      const sent: Record<string, string | undefined> = {};
      for (const name of [NAMED, "HOME", UNNAMED]) {
        const before = capture.headers.length;
        await client.run({
          taskData: { idx: 0, prompt: "abc def" },
          client: { base_url: capture.url, api_key_var: name },
          model: "scripted",
        });
        sent[name] = capture.headers[before]!.authorization;
      }
      expect(sent).toEqual({
        [NAMED]: "Bearer named-key-value",
        HOME: "Bearer EMPTY",
        [UNNAMED]: "Bearer EMPTY",
      });
      expect(JSON.stringify(capture.headers)).not.toContain("unnamed-secret-value");
      const refused = `a run named the key variable "${UNNAMED}" for "${capture.url}": its value was not sent (only --key-var variables are; the key sent was "EMPTY"): to send it, restart vf env serve with --key-var "${UNNAMED}"`;
      await until(
        () => stderr.includes(refused),
        () => stderr.join("\n"),
      );
    } finally {
      client.close();
    }
  }, 120_000);

  it("refuses a --key-var that is not a variable name, in one line", async () => {
    const result = await runVf(["env", "serve", "reverse-text", "--key-var", "A=B"], { timeoutSeconds: 60 });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: --key-var takes the name of an environment variable (letters, digits, _), got "A=B": e.g. --key-var OPENAI_API_KEY\n',
    );
  });

  it("vf eval --env-server sends its own -k key through the pool it starts", async () => {
    const guarded = await startScriptedServer({ apiKey: "named-key-value" });
    try {
      const run = await runVf(
        [
          "eval",
          "reverse-text",
          "-m",
          "scripted",
          "-b",
          guarded.url,
          "-k",
          NAMED,
          "-n",
          "2",
          "-r",
          "1",
          "--env-server",
        ],
        { env: secrets, timeoutSeconds: 120 },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(guarded.headers.map((h) => h.authorization)).toEqual([
        "Bearer named-key-value",
        "Bearer named-key-value",
      ]);
    } finally {
      await guarded.close();
    }
  }, 150_000);
});

describe("vf env serve, told something it cannot do", () => {
  it.each([
    [
      ["reverse-text", "--address", "tcp://127.0.0.1:99999"],
      2,
      /^error: --address tcp:\/\/127\.0\.0\.1:99999 has no port from 0 to 65535: give one, e.g\. tcp:\/\/127\.0\.0\.1:5000 \(port 0: any free one\)$/,
    ],
    [
      ["reverse-text", "--address", "127.0.0.1:5000"],
      2,
      /^error: --address 127\.0\.0\.1:5000 is not a ZeroMQ address: write tcp:\/\/HOST:PORT \(e\.g\. tcp:\/\/127\.0\.0\.1:5000\) or ipc:\/\/PATH$/,
    ],
    [
      ["no-such-env", "--address", "tcp://127.0.0.1:0"],
      1,
      /^error: environment "no-such-env" cannot be loaded: unknown environment "no-such-env": known environments: .*; or pass a path to a package folder$/,
    ],
    [
      ["reverse-text", "--max-message-mib", "0"],
      2,
      /^error: --max-message-mib must be a whole number ≥ 1, got "0"$/,
    ],
    [
      ["reverse-text", "--runtime", "local"],
      2,
      /^error: --runtime local is where agents run, and reverse-text is an environment run by vf itself: add --harness chat \(or bash\) to serve it as agents, or drop --runtime$/,
    ],
    [
      ["coding-tasks", "-x", '{"max_turns": 3}'],
      2,
      /^error: coding-tasks is a taskset, which takes no -x settings: pass its arguments with -a$/,
    ],
    [
      ["coding-tasks", "--runtime", "vm"],
      2,
      /^error: --runtime "vm" is not a runtime: use one of local, container, subprocess$/,
    ],
    [
      ["coding-tasks", "--harness", "no-such-harness", "--address", "tcp://127.0.0.1:0"],
      1,
      /^error: environment "coding-tasks" cannot be loaded: there is no harness "no-such-harness": use one of bash, chat, claude-code, codex, pi, opencode$/,
    ],
  ])("vf env serve %j exits %i with one line, and prints no address", async (args, code, message) => {
    const result = await runVf(["env", "serve", ...args], { timeoutSeconds: 60 });
    expect(result.code).toBe(code);
    expect(result.stdout).toBe("");
    const lines = result.stderr.split("\n").filter((line) => line !== "");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
  });

  it("prints its address and 'serving' once the environment has loaded, with the limits it was given", async () => {
    const { address, stderr } = await serve([
      "reverse-text",
      "--address",
      "tcp://127.0.0.1:0",
      "--max-message-mib",
      "2",
    ]);
    const serving = `serving reverse-text on ${address} (up to 1 worker); Ctrl-C to stop`;
    await until(
      () => stderr.includes(serving),
      () => stderr.join("\n"),
    );
    const ready = stderr.findIndex((line) => /^worker 0 ready \(pid \d+\)$/.test(line));
    expect(ready).toBeGreaterThanOrEqual(0);
    expect(stderr.indexOf(serving)).toBeGreaterThan(ready);
    const client = new EnvClient(address);
    try {
      expect((await client.stats()).limits.max_message_bytes).toBe(2 * 1024 * 1024);
    } finally {
      client.close();
    }
  }, 120_000);
});
