/**
 * `vf env serve` stopped the way a supervisor stops it (SIGTERM to the vf process): the runs in
 * flight finish and are answered, a run sent afterwards is refused with a clear error, the process
 * exits 0 once the last reply is out, and none of its worker processes is left behind.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { lastUserText, type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EnvClient } from "../src/client/env-client.ts";

const repo = fileURLToPath(new URL("../../..", import.meta.url));
const vf = join(repo, "packages", "cli", "bin", "vf.js");

let scripted: ScriptedServer;
let child: ChildProcess | undefined;

beforeAll(async () => {
  // A passage that says "pause" waits 2 s at the model: long enough to be in flight at SIGTERM.
  scripted = await startScriptedServer({
    tokens: true,
    latencySeconds: (request) => (lastUserText(request.messages).includes("pause") ? 2 : 0),
  });
});

afterAll(async () => {
  if (child?.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await scripted?.close();
});

describe("vf env serve on SIGTERM", () => {
  it("finishes the runs in flight, refuses new ones, exits 0 and leaves no worker", async () => {
    const server = spawn(
      process.execPath,
      [vf, "env", "serve", "reverse-text", "-w", "2", "--static", "--address", "tcp://127.0.0.1:0"],
      { cwd: repo, stdio: ["ignore", "pipe", "pipe"] },
    );
    child = server;
    const lines: string[] = [];
    const workerPids: number[] = [];
    createInterface({ input: server.stderr! }).on("line", (line) => {
      lines.push(line);
      const ready = /^worker \d+ ready \(pid (\d+)\)/.exec(line);
      if (ready) workerPids.push(Number(ready[1]));
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      server.once("exit", (code, signal) => resolve({ code, signal })),
    );
    const address = await new Promise<string>((resolve, reject) => {
      createInterface({ input: server.stdout! }).once("line", resolve);
      server.once("exit", (code) => reject(new Error(`vf env serve exited (${code}): ${lines.join("\n")}`)));
    });
    const client = new EnvClient(address);
    const endpoint = { base_url: scripted.url, api_key_var: "", type: "train" as const };
    try {
      await until(
        () => workerPids.length === 2,
        () => lines.join("\n"),
      );

      const inFlight = Promise.allSettled(
        [1, 2, 3, 4].map((idx) =>
          client.run({
            taskData: { idx, prompt: `a pause in passage ${idx}` },
            client: endpoint,
            model: "scripted",
          }),
        ),
      );
      // Every run has reached the model, so each is running in a worker when the signal comes.
      await until(
        () => scripted.requests.length === 4,
        () => lines.join("\n"),
      );
      server.kill("SIGTERM");
      await until(
        () => lines.some((line) => line.startsWith("draining:")),
        () => lines.join("\n"),
      );

      const late = client.run({
        taskData: { idx: 9, prompt: "too late" },
        client: endpoint,
        model: "scripted",
      });
      await expect(late).rejects.toThrow(
        /^ServerDrainingError: this env server is shutting down and takes no new runs/,
      );

      const answered = await inFlight;
      expect(
        answered.map((a) =>
          a.status === "fulfilled" ? [a.value.ok, a.value.task.data.idx] : String(a.reason),
        ),
      ).toEqual([
        [true, 1],
        [true, 2],
        [true, 3],
        [true, 4],
      ]);
      const episodes = answered.flatMap((a) => (a.status === "fulfilled" ? [a.value] : []));
      for (const [i, episode] of episodes.entries()) {
        const answer = episode.traces[0]!.nodes.at(-1)!;
        expect(answer.message).toMatchObject({ role: "assistant", content: `a pause in passage ${i + 1}` });
        expect(answer.mask.some(Boolean)).toBe(true);
      }
      // The run refused after the signal never reached the model.
      expect(scripted.requests).toHaveLength(4);

      const exit = await withDeadline(
        exited,
        60_000,
        () => `vf env serve did not exit:\n${lines.join("\n")}`,
      );
      expect(exit, lines.join("\n")).toEqual({ code: 0, signal: null });
      expect(lines.at(-1)).toBe("stopped");
      for (const pid of workerPids)
        await until(
          () => !running(pid),
          () => `worker pid ${pid} is still running`,
        );
    } finally {
      client.close();
    }
  }, 180_000);
});

/** Whether a process with this id runs (a zombie has exited: it only waits to be reaped). */
function running(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return false;
  }
  // The state follows the parenthesised command name: "1234 (node) S ...".
  return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
}

async function until(condition: () => boolean, describe: () => string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met in time:\n${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function withDeadline<T>(promise: Promise<T>, ms: number, describe: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(describe())), ms);
    }),
  ]);
}
