// The sandbox on its own: a persistent REPL, its limits, and its refusal to run where it cannot
// confine code.
import { readFileSync } from "node:fs";
import { chmod, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SandboxError } from "@vf-rl/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkSandbox } from "./check-sandbox.ts";
import { measureOverhead } from "./measure-overhead.ts";
import type { PythonSandbox } from "./python-sandbox.ts";
import type { SandboxFolder } from "./sandbox-folder.ts";
import { SandboxOptions, type SandboxOptionsInput } from "./sandbox-options.ts";
import { sandboxProcesses, withSandbox as withSandboxIn } from "./test-support.ts";

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "vf-python-test-"));
  // The sandbox runs as another user when the tests run as root: it must be able to enter the folder.
  await chmod(scratch, 0o755);
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** The host's shared memory (tmpfs files, memfds, System V segments) in MB, from /proc/meminfo. */
function hostSharedMemoryMb(): number {
  return Number(/^Shmem:\s+(\d+) kB$/m.exec(readFileSync("/proc/meminfo", "utf8"))?.[1]) / 1024;
}

/** Runs `body` with a started sandbox in a fresh folder, then stops it and removes the folder. */
function withSandbox(
  input: SandboxOptionsInput,
  body: (sandbox: PythonSandbox, folder: SandboxFolder) => Promise<void>,
) {
  return withSandboxIn(scratch, input, body);
}

describe("PythonSandbox", () => {
  it("keeps variables between calls and prints a final expression like a REPL", async () => {
    await withSandbox({}, async (sandbox) => {
      expect(await sandbox.run("x = 6\nimport math")).toMatchObject({ type: "ok", output: "" });
      expect(await sandbox.run("print('seven'); x * 7")).toMatchObject({ type: "ok", output: "seven\n42\n" });
      expect(await sandbox.run("math.factorial(x)")).toMatchObject({ type: "ok", output: "720\n" });
    });
  });

  it("reports the code's exception with a traceback of the code alone, and lives on", async () => {
    await withSandbox({}, async (sandbox) => {
      const failed = await sandbox.run("print('before')\n1 / 0");
      expect(failed).toMatchObject({ type: "error", output: "before\n", limit: null });
      const traceback = failed.type === "error" ? failed.traceback : "";
      expect(traceback).toMatch(
        /^Traceback \(most recent call last\):\n {2}File "<code>", line 2, in <module>\n {4}1 \/ 0\n/,
      );
      expect(traceback).toMatch(/\nZeroDivisionError: division by zero$/);
      expect(traceback).not.toMatch(/worker|<string>/);
      expect(await sandbox.run("'still here'")).toMatchObject({ type: "ok", output: "'still here'\n" });
    });
  });

  it("cuts a huge exception message and traceback, and lives on", async () => {
    await withSandbox({}, async (sandbox) => {
      const failed = await sandbox.run("raise ValueError('x' * 5_000_000)");
      expect(failed).toMatchObject({
        type: "error",
        error: expect.stringMatching(/^ValueError: x+ \[cut\]$/),
      });
      const { error, traceback } = failed.type === "error" ? failed : { error: "", traceback: "" };
      expect(error.length).toBeLessThan(20_000);
      expect(traceback).toMatch(/^\[traceback cut\]\nx+$/);
      expect(traceback.length).toBeLessThan(20_000);
      expect(await sandbox.run("'still here'")).toMatchObject({ type: "ok", output: "'still here'\n" });
    });
  });

  it("writes files to the rollout's folder, which the host sees", async () => {
    await withSandbox({}, async (sandbox, folder) => {
      const result = await sandbox.run("import os\nopen('notes.txt', 'w').write('hi')\nos.getcwd()");
      expect(result).toMatchObject({ type: "ok", output: "'/sandbox'\n" });
      expect(await readdir(folder.work)).toEqual(["notes.txt"]);
    });
  });

  it("interrupts a call at its time limit and keeps the sandbox", async () => {
    await withSandbox({ timeoutSeconds: 1 }, async (sandbox) => {
      await sandbox.run("x = 1");
      const slept = await sandbox.run("import time\ntime.sleep(60)");
      // Stopped by the worker's timer: the host's own kill (at the limit and its grace) says "timeout".
      expect(slept).toMatchObject({ type: "error", error: "TimeLimitExceeded" });
      expect(await sandbox.run("x")).toMatchObject({ type: "ok", output: "1\n" });
    });
  });

  it("kills a sandbox whose call ignores its time limit; the variables are gone with it", async () => {
    await withSandbox({ timeoutSeconds: 1 }, async (sandbox) => {
      await sandbox.run("x = 1");
      const slept = await sandbox.run(
        "import signal, time\nsignal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGALRM])\ntime.sleep(60)",
      );
      expect(slept).toMatchObject({ type: "timeout", timeoutSeconds: 1 });
      // The code sleeps a minute: ending well before it shows the sandbox was killed.
      expect(slept.ms).toBeLessThan(30_000);
      expect(sandbox.alive).toBe(false);
      expect(await sandbox.run("x")).toMatchObject({ type: "crashed" });
    });
  });

  it("holds no memory outside its address-space limit: memfds and shared memory are refused", async () => {
    await withSandbox({ memoryMb: 256 }, async (sandbox) => {
      const before = hostSharedMemoryMb();
      // 1 GB in 64 in-memory files, which no address space counts, kept in a variable.
      const memfds = await sandbox.run(
        "import os\nfds = []\nfor _ in range(64):\n    fd = os.memfd_create('hoard')\n    os.write(fd, bytes(16 << 20))\n    fds.append(fd)",
      );
      expect(memfds).toMatchObject({
        type: "error",
        error: "PermissionError: [Errno 1] Operation not permitted",
      });
      // 1 GB in System V shared memory segments, which outlive the process that made them.
      const segments = await sandbox.run(
        "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n[libc.shmget(0, 16 << 20, 0o1600) for _ in range(64)].count(-1), ctypes.get_errno()",
      );
      expect(segments).toMatchObject({ type: "ok", output: "(64, 1)\n" });
      // memfds and shared memory are counted in the host's Shmem; the sandbox added none of the 2 GB.
      expect(hostSharedMemoryMb() - before).toBeLessThan(256);
      expect(await sandbox.run("len(fds)")).toMatchObject({ type: "ok", output: "0\n" });
    });
  });

  it("leaves no process behind once closed", async () => {
    await withSandbox({}, async (sandbox) => {
      await sandbox.run(
        "import subprocess, sys\nsubprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])",
      );
      expect((await sandboxProcesses(scratch)).length).toBeGreaterThan(0);
      await sandbox.close();
      expect(await sandboxProcesses(scratch)).toEqual([]);
    });
  });

  // How fast is bench/overhead.ts's question; this checks the measuring itself works and cleans up.
  it("measures its start-up and a call's round trip, leaving nothing behind", async () => {
    const { startMs, callMs } = await checkSandbox(SandboxOptions.parse({ tempDir: scratch }));
    expect(startMs).toBeGreaterThan(0);
    // Whole milliseconds: a quick call of 6 * 7 is often 0.
    expect(callMs).toBeGreaterThanOrEqual(0);
    const overhead = await measureOverhead(SandboxOptions.parse({ tempDir: scratch }), {
      starts: 2,
      calls: 20,
    });
    expect(overhead.startMs.median).toBeGreaterThan(0);
    expect(overhead.callMs.p95).toBeGreaterThanOrEqual(overhead.callMs.median);
    expect(await readdir(scratch)).toEqual([]);
  });
});

describe("where the sandbox cannot confine code", () => {
  const refusal = async (input: SandboxOptionsInput) => {
    const error = await checkSandbox(SandboxOptions.parse({ tempDir: scratch, ...input })).catch((e) => e);
    expect(error).toBeInstanceOf(SandboxError);
    return (error as SandboxError).message;
  };

  it("refuses without unshare, naming it and what to install", async () => {
    expect(await refusal({ unshare: "/nonexistent/unshare" })).toBe(
      'unshare was not found at /nonexistent/unshare: install util-linux (apt-get install util-linux) or pass its path as "unshare"',
    );
  });

  it("refuses without the Python interpreter", async () => {
    expect(await refusal({ python: "/nonexistent/python3" })).toMatch(
      /^python3 was not found at \/nonexistent\/python3: install it/,
    );
  });

  it("refuses when the kernel will not make user namespaces, and says how to allow them", async () => {
    // An unshare that fails as it does on a machine without unprivileged user namespaces.
    const fake = join(scratch, "unshare-denied");
    await writeFile(fake, "#!/bin/sh\necho 'unshare: unshare failed: Operation not permitted' >&2\nexit 1\n");
    await chmod(fake, 0o755);
    const message = await refusal({ unshare: fake });
    expect(message).toMatch(
      /could not create its namespaces \(unshare: unshare failed: Operation not permitted\)/,
    );
    expect(message).toMatch(/allow them \(sysctl user\.max_user_namespaces/);
  });

  it("refuses when a step of the confinement fails, quoting it", async () => {
    // An unshare that runs its command without namespaces: the launcher's first mount is refused
    // (vf runs unprivileged here, or as a dropped user), so no code runs.
    const fake = join(scratch, "unshare-no-namespaces");
    await writeFile(
      fake,
      '#!/bin/sh\nwhile :; do case "$1" in --*) shift ;; *) break ;; esac; done\nexec "$@"\n',
    );
    await chmod(fake, 0o755);
    expect(await refusal({ unshare: fake })).toMatch(
      /^the Python sandbox could not confine Python \(making the mount tree private failed: Operation not permitted/,
    );
  });
});
