// How long a local runtime and its programs live: no longer than close(), nor than vf, even killed
// by SIGKILL; and many at once, each in its own folder, none seeing another's files. The sandbox
// runs as its own user id (64104) here, so the host's view of its processes is that user's.
import { spawn } from "node:child_process";
import { readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { taskWith } from "../runtime.contract.ts";
import { localRuntime } from "./local-runtime.ts";
import { AS_ROOT, eventually, processesOf, scratchFolder } from "./test-support.ts";

const UID = 64104;
const HOST = fileURLToPath(new URL("./fixtures/runtime-host.ts", import.meta.url));
let scratch: Awaited<ReturnType<typeof scratchFolder>>;
beforeAll(async () => {
  scratch = await scratchFolder("lifetime");
});
afterAll(async () => {
  for (const pid of await processesOf(UID)) process.kill(pid, "SIGKILL");
  await scratch.remove();
});

describe("a local runtime's lifetime", () => {
  it.skipIf(!AS_ROOT)(
    "ends with its host: a SIGKILLed vf leaves no process, and the next runtime removes its folder",
    async () => {
      const host = spawn(
        process.execPath,
        ["--conditions=vf-source", "--import", "tsx", HOST, scratch.path, String(UID)],
        {
          stdio: ["ignore", "pipe", "inherit"],
        },
      );
      const exited = new Promise((resolve) => host.once("exit", resolve));
      try {
        await new Promise<void>((resolve, reject) => {
          host.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("running") && resolve());
          host.once("exit", (code) => reject(new Error(`the host exited (${code}) before its program ran`)));
        });
        const [folder] = await readdir(scratch.path);
        expect(folder).toMatch(new RegExp(`^vf-agent-\\d+-${host.pid}-\\d+-`));
        // The init, the shell and its two sleepers (one in a session of its own).
        expect((await processesOf(UID)).length).toBeGreaterThanOrEqual(4);

        host.kill("SIGKILL");
        await exited;
        expect(await eventually(async () => (await processesOf(UID)).length === 0)).toBe(true);

        // The dead host's folder stays until the next runtime is made beside it.
        expect(await readdir(scratch.path)).toEqual([folder]);
        const next = await localRuntime({ tempDir: scratch.path, sandboxUid: UID }).create(taskWith(), {
          interceptionUrl: "http://127.0.0.1:9/v1",
        });
        const left = await readdir(scratch.path);
        await next.close();
        expect(left).toHaveLength(1);
        expect(left).not.toContain(folder);
        expect(await readdir(scratch.path)).toEqual([]);
      } finally {
        host.kill("SIGKILL");
      }
    },
  );

  it.skipIf(!AS_ROOT)(
    "is gone entirely once close() resolves: its programs, their children, its folder",
    async () => {
      const runtime = await localRuntime({ tempDir: scratch.path, sandboxUid: UID }).create(taskWith(), {
        interceptionUrl: "http://127.0.0.1:9/v1",
      });
      const running = [
        runtime.exec(["sh", "-c", "sleep 600 & setsid sleep 600 & wait"]),
        runtime.exec(["node", "-e", "setInterval(() => {}, 1000)"]),
      ];
      expect(await eventually(async () => (await processesOf(UID)).length >= 5)).toBe(true);
      await runtime.close();
      expect(await processesOf(UID)).toEqual([]);
      expect(await readdir(scratch.path)).toEqual([]);
      for (const result of await Promise.all(running)) expect(result.exitCode).toBeNull();
    },
  );

  it("runs 20 runtimes at once, each in its own folder, seeing only its own files", async () => {
    const factory = localRuntime({ tempDir: scratch.path, sandboxUid: UID });
    const runtimes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        factory.create(taskWith({ [`task-${i}.txt`]: `task ${i}` }), {
          interceptionUrl: "http://127.0.0.1:9/v1",
        }),
      ),
    );
    try {
      expect(await readdir(scratch.path)).toHaveLength(20);
      const seen = await Promise.all(
        runtimes.map((runtime, i) =>
          runtime.exec([
            "sh",
            "-c",
            `echo ${i} > /tmp/mine; echo ${i} > ~/mine; ls -A /workspace /tmp ~; cat task-*.txt`,
          ]),
        ),
      );
      seen.forEach((result, i) => {
        expect(result).toEqual({
          exitCode: 0,
          stdout: `/home/agent:\nmine\n\n/tmp:\nmine\n\n/workspace:\ntask-${i}.txt\ntask ${i}`,
          stderr: "",
          timedOut: false,
        });
      });
    } finally {
      await Promise.all(runtimes.map((runtime) => runtime.close()));
    }
    expect(await readdir(scratch.path)).toEqual([]);
  });
});
