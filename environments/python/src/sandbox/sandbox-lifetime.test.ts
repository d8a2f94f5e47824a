// How long a sandbox and its processes live: no longer than its host, than close(), or (for the
// threads the code starts) than the call that started them.
import { spawn } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { processState } from "@vf-rl/agents/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PythonSandbox } from "./python-sandbox.ts";
import {
  hostSides,
  namespaceProcesses,
  sandboxNamespace,
  sandboxProcesses,
  sandboxWorker,
  withSandbox,
} from "./test-support.ts";

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "vf-python-lifetime-"));
  // The sandbox runs as another user when the tests run as root: it must be able to enter the folder.
  await chmod(scratch, 0o755);
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** A fresh folder for one test's sandboxes, so that what is left in it is that test's alone. */
async function folderFor(name: string): Promise<string> {
  const dir = join(scratch, name);
  await mkdir(dir);
  await chmod(dir, 0o755);
  return dir;
}

/** Waits until `condition` holds, checking every 50 ms, for at most `seconds`. */
async function eventually(condition: () => Promise<boolean>, seconds = 30): Promise<boolean> {
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

/** Starts a call that keeps running, and resolves with the sandbox's namespace once it runs. */
async function busy(sandbox: PythonSandbox, dir: string, code: string) {
  const call = sandbox.run(code);
  const namespace = await sandboxNamespace(dir);
  if (namespace === undefined) throw new Error("the sandbox is not running");
  return { call, namespace };
}

const SPIN_THREAD =
  "import threading\ndef spin():\n    while True:\n        pass\nthreading.Thread(target=spin).start()";
const HOST = fileURLToPath(new URL("./fixtures/sandbox-host.ts", import.meta.url));

describe("a sandbox's lifetime", () => {
  it("ends with its host: a SIGKILLed host leaves no process, and the next sandbox removes its folder", {
    timeout: 90_000,
  }, async () => {
    const dir = await folderFor("host");
    const host = spawn(
      process.execPath,
      ["--conditions=vf-source", "--import", "tsx", HOST, dir, SPIN_THREAD],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    const exited = new Promise((resolve) => host.once("exit", resolve));
    try {
      await new Promise<void>((resolve, reject) => {
        host.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("running") && resolve());
        host.once("exit", (code) => reject(new Error(`the host exited (${code}) before its sandbox ran`)));
      });
      const [hostFolder] = await readdir(dir);
      expect(hostFolder).toMatch(new RegExp(`^vf-python-\\d+-${host.pid}-\\d+-`));
      const namespace = await sandboxNamespace(dir);
      expect(namespace).toBeDefined();

      host.kill("SIGKILL");
      await exited;
      // Gone, once the machine's init has reaped what the host no longer can.
      expect(await eventually(async () => (await sandboxProcesses(dir)).length === 0)).toBe(true);
      expect(await eventually(async () => (await namespaceProcesses(namespace!)).length === 0)).toBe(true);

      // The dead host's folder is still there, until a sandbox starts beside it.
      expect(await readdir(dir)).toEqual([hostFolder]);
      await withSandbox(dir, {}, async (_sandbox, folder) => {
        expect(await readdir(dir)).toEqual([basename(folder.path)]);
      });
    } finally {
      host.kill("SIGKILL");
      // Whatever this test's failure left running.
      for (const pid of await sandboxProcesses(dir)) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // It ended meanwhile.
        }
      }
    }
  });

  it("is gone entirely once close() resolves, even with processes that take time to die", async () => {
    const dir = await folderFor("close");
    await withSandbox(dir, { maxProcesses: 32, timeoutSeconds: 60 }, async (sandbox) => {
      // Children that hold memory take a while to tear down after SIGKILL.
      const { call, namespace } = await busy(
        sandbox,
        dir,
        "import subprocess, sys, time\nchildren = [subprocess.Popen([sys.executable, '-c', 'b = bytearray(200 << 20)\\nwhile True: pass']) for _ in range(4)]\ntime.sleep(600)",
      );
      expect(await eventually(async () => (await namespaceProcesses(namespace)).length >= 5)).toBe(true);
      await sandbox.close();
      expect(await namespaceProcesses(namespace)).toEqual([]);
      expect(await call).toMatchObject({ type: "crashed" });
    });
  });

  it("waits for the threads a call starts, and keeps the sandbox when they end in time", async () => {
    await withSandbox(await folderFor("threads-end"), { timeoutSeconds: 20 }, async (sandbox) => {
      // The threads print at different times: two threads writing to one stdout at the same
      // instant can lose a write in CPython itself (under load, about 2% of runs outside any
      // sandbox), which made this test fail on output the sandbox had waited for.
      const result = await sandbox.run(
        "import threading, _thread, time\nthreading.Thread(target=lambda: (time.sleep(0.2), print('thread'))).start()\n_thread.start_new_thread(lambda: (time.sleep(0.5), print('low-level thread')), ())\nx = 1",
      );
      expect(result).toMatchObject({ type: "ok" });
      expect(result.type === "ok" && result.output.split("\n").sort()).toEqual([
        "",
        "low-level thread",
        "thread",
      ]);
      expect(await sandbox.run("x")).toMatchObject({ type: "ok", output: "1\n" });
    });
  });

  it("restarts the sandbox when a call's threads run past its time limit, so none spins on", async () => {
    const dir = await folderFor("threads-left");
    await withSandbox(dir, { timeoutSeconds: 1 }, async (sandbox) => {
      await sandbox.run("x = 1");
      const namespace = await sandboxNamespace(dir);
      const result = await sandbox.run(`${SPIN_THREAD}\nprint('started')`);
      expect(result).toMatchObject({ type: "threads", threads: 1, output: "started\n", timeoutSeconds: 1 });
      expect(sandbox.alive).toBe(false);
      // No process of the sandbox is left, so nothing of the call uses any CPU.
      expect(await namespaceProcesses(namespace!)).toEqual([]);
    });
  });

  it("catches threads started below Python, which the worker cannot count", async () => {
    const dir = await folderFor("threads-native");
    await withSandbox(dir, { timeoutSeconds: 5 }, async (sandbox) => {
      const namespace = await sandboxNamespace(dir);
      // pthread_create through ctypes: a thread Python's own count does not include.
      const result = await sandbox.run(
        [
          "import ctypes",
          "libc = ctypes.CDLL(None)",
          "SPIN = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p)",
          "def spin(_):",
          "    while True:",
          "        pass",
          "spin_c = SPIN(spin)",
          "thread = ctypes.c_ulong()",
          "libc.pthread_create(ctypes.byref(thread), None, spin_c, None)",
        ].join("\n"),
      );
      expect(result).toMatchObject({ type: "threads", threads: 1 });
      expect(await namespaceProcesses(namespace!)).toEqual([]);
    });
  });

  it("ends the processes a call leaves behind even when the code disables the worker's own killer", async () => {
    const dir = await folderFor("strays");
    await withSandbox(dir, {}, async (sandbox) => {
      await sandbox.run("x = 1");
      const namespace = await sandboxNamespace(dir);
      const result = await sandbox.run(
        [
          "import subprocess, sys",
          "sys.modules['__main__'].kill_strays = lambda: None  # the worker's clean-up, replaced",
          "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'])",
          "print('started')",
        ].join("\n"),
      );
      expect(result).toMatchObject({ type: "processes", processes: 1, output: "started\n" });
      // The whole namespace went with it, the sleeper included.
      expect(sandbox.alive).toBe(false);
      expect(await namespaceProcesses(namespace!)).toEqual([]);
    });
  });

  it("ends a process the worker starts between calls before the next call's code runs", async () => {
    const dir = await folderFor("between-calls");
    await withSandbox(dir, {}, async (sandbox) => {
      // A handler left in the worker that starts a sleeper when a signal comes, outside any call.
      await sandbox.run(
        "import signal, subprocess, sys\nsignal.signal(signal.SIGUSR1, lambda *_: subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)']))",
      );
      const namespace = await sandboxNamespace(dir);
      // The signal a timer of the code's would send; here from the test, between two calls.
      process.kill((await sandboxWorker(dir))!, "SIGUSR1");
      expect(await eventually(async () => (await namespaceProcesses(namespace!)).length === 2)).toBe(true);
      const next = await sandbox.run("print('must not run')");
      expect(next).toMatchObject({
        type: "crashed",
        detail: expect.stringMatching(/^a process that the code started after its last call/),
      });
      expect(await namespaceProcesses(namespace!)).toEqual([]);
    });
  });

  it("cannot be stopped from inside: SIGSTOP to the code's group, to every process, from a child, leaves vf's side running", async () => {
    const dir = await folderFor("sigstop");
    await withSandbox(dir, {}, async (sandbox) => {
      await sandbox.run("x = 1");
      const [host] = await hostSides(dir);
      const stops = [
        "import os, signal\nos.kill(0, signal.SIGSTOP)",
        "import os, signal\nos.killpg(os.getpgid(0), signal.SIGSTOP)",
        // A child stops every process it can name, then its own group, itself included.
        "import os, signal\nif os.fork() == 0:\n    os.kill(-1, signal.SIGSTOP)\n    os.kill(0, signal.SIGSTOP)\n    os._exit(0)",
      ];
      for (const code of stops) {
        // The call comes back (killpg may find no group to signal: the code's group is PID 1's).
        expect(["ok", "error"]).toContain((await sandbox.run(code)).type);
        // unshare, which reaps the sandbox when it ends, was not stopped.
        expect(processState(host!)).not.toBe("T");
      }
      expect(await sandbox.run("x")).toMatchObject({ type: "ok", output: "1\n" });
    });
  });

  it("close() ends a sandbox even when something outside stopped its host side", async () => {
    const dir = await folderFor("stopped-host");
    await withSandbox(dir, {}, async (sandbox) => {
      await sandbox.run("x = 1");
      const namespace = await sandboxNamespace(dir);
      const [host] = await hostSides(dir);
      process.kill(host!, "SIGSTOP");
      // Stopped, unshare cannot reap the namespace's PID 1: close() kills it too, and waits for PID 1.
      await sandbox.close();
      expect(sandbox.alive).toBe(false);
      // Nothing of it runs: PID 1, whose parent is gone, may wait as a zombie for the machine's init.
      const running = (await namespaceProcesses(namespace!)).filter((pid) => processState(pid) !== "Z");
      expect(running).toEqual([]);
    });
  });
});
