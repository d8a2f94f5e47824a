// A hostile agent in the local runtime: what it tries, what stops it, and what vf reports. Each
// attempt is a real program in a real sandbox; the sandbox runs as its own user id (64102), so the
// host's view of its processes is that user's processes.
import { fileURLToPath } from "node:url";
import type { Runtime, RuntimeFactory } from "@vf-rl/core/agents";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { taskWith } from "../runtime.contract.ts";
import { localRuntime } from "./local-runtime.ts";
import { AS_ROOT, eventually, processesOf, scratchFolder } from "./test-support.ts";

const UID = 64102;
let scratch: Awaited<ReturnType<typeof scratchFolder>>;
let factory: RuntimeFactory;
let runtime: Runtime;
beforeAll(async () => {
  scratch = await scratchFolder("hostile");
  factory = localRuntime({ tempDir: scratch.path, sandboxUid: UID, maxProcesses: 64, memoryMb: 256 });
  runtime = await factory.create(taskWith({ "mine.txt": "mine" }), {
    interceptionUrl: "http://127.0.0.1:9/v1",
  });
});
afterAll(async () => {
  await runtime.close();
  await scratch.remove();
});

/** Runs a shell line in the shared runtime. */
const sh = (line: string, options: { timeoutMs?: number } = {}) => runtime.exec(["sh", "-c", line], options);

describe("a hostile program in the local runtime", () => {
  it("cannot read the host's files: its /etc, the repository, /root, the host's /tmp, other runtimes", async () => {
    const other = await factory.create(taskWith({ "secret.txt": "theirs" }), {
      interceptionUrl: "http://127.0.0.1:9/v1",
    });
    try {
      const thisFile = fileURLToPath(import.meta.url);
      const result = await sh(
        `cat /etc/passwd; cat ${thisFile}; ls /root; ls ${scratch.path}; ls /tmp; cat /etc/shadow; hostname`,
      );
      // Its /etc is the runtime's: no root, no host users, no shadow file.
      expect(result.stdout).toBe(
        "agent:x:1000:1000:agent:/home/agent:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\nsandbox\n",
      );
      for (const path of [thisFile, "/root", scratch.path, "/etc/shadow"]) {
        expect(result.stderr).toMatch(
          new RegExp(`${path.replace(/[.]/g, "\\.")}'?: No such file or directory`),
        );
      }
      expect((await sh("find / -name secret.txt 2>/dev/null")).stdout).toBe("");
    } finally {
      await other.close();
    }
  });

  it("cannot write outside its folders: the system's, /etc, the root", async () => {
    const result = await sh(
      "touch /usr/bin/x; touch /x; mkdir /lib/y; echo >> /etc/hosts; echo ok > /workspace/ok",
    );
    expect(result.stderr).toBe(
      [
        "touch: cannot touch '/usr/bin/x': Read-only file system",
        "touch: cannot touch '/x': Read-only file system",
        "mkdir: cannot create directory ‘/lib/y’: Read-only file system",
        "sh: 1: cannot create /etc/hosts: Permission denied\n",
      ].join("\n"),
    );
    expect(await runtime.readFile("ok")).toBe("ok\n");
  });

  it("stops a fork bomb at its process limit, and other runtimes go on starting processes", async () => {
    const bystander = await factory.create(taskWith(), { interceptionUrl: "http://127.0.0.1:9/v1" });
    try {
      const bomb = runtime.exec(["bash", "-c", "bomb() { bomb | bomb & }; bomb; sleep 2"], {
        timeoutMs: 4000,
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      const meanwhile = await bystander.exec([
        "sh",
        "-c",
        "for i in 1 2 3 4 5 6 7 8; do true & done; wait; echo fine",
      ]);
      expect(meanwhile).toMatchObject({ exitCode: 0, stdout: "fine\n" });
      const result = await bomb;
      expect(result.stderr).toMatch(/fork: (retry: )?Resource temporarily unavailable/);
    } finally {
      await bystander.close();
    }
  });

  it.skipIf(!AS_ROOT)(
    "outlives its time in no process: the exec's time limit ends all it started",
    async () => {
      const start = Date.now();
      const result = await sh("sleep 600 & setsid sleep 600 & nohup sleep 600 > /dev/null & sleep 600", {
        timeoutMs: 1000,
      });
      expect(result).toMatchObject({ exitCode: null, timedOut: true });
      expect(result.stderr).toMatch(/stopped at the time limit of 1 s/);
      expect(Date.now() - start).toBeLessThan(5000);
      expect(await eventually(async () => (await processesOf(UID)).length === 0)).toBe(true);
      // A program that ends leaves nothing running either.
      await sh("sleep 600 & setsid sleep 600 & echo left them");
      expect(await eventually(async () => (await processesOf(UID)).length === 0)).toBe(true);
    },
  );

  it("sets its own parent-death signal, as Codex does for each command, and clearing it outlives nothing", async () => {
    const prctl = (signal: number) =>
      `import ctypes; libc = ctypes.CDLL(None, use_errno=True); print(libc.prctl(1, ${signal}, 0, 0, 0), ctypes.get_errno(), flush=True)`;
    // PR_SET_PDEATHSIG reaches only the caller; the sandbox's tie to vf is the init's, outside the filter.
    expect((await sh(`python3 -c '${prctl(15)}'`)).stdout).toBe("0 0\n");
    const start = Date.now();
    const result = await sh(`python3 -c '${prctl(0)}; import time; time.sleep(600)' & wait`, {
      timeoutMs: 2000,
    });
    expect(result).toMatchObject({ exitCode: null, timedOut: true, stdout: "0 0\n" });
    expect(Date.now() - start).toBeLessThan(10_000);
    if (AS_ROOT) expect(await eventually(async () => (await processesOf(UID)).length === 0)).toBe(true);
  });

  it("floods its output and is stopped, on stdout or stderr", async () => {
    const flood = await runtime.exec(["sh", "-c", "yes >&2"]);
    expect(flood.exitCode).toBeNull();
    expect(flood.stderr).toMatch(/\[vf: stopped: its stderr passed 16777216 bytes \(maxOutputBytes\)\]\n$/);
  });

  it("cannot allocate past its memory limit", async () => {
    const result = await runtime.exec([
      "node",
      "-e",
      "const kept = []; for (;;) kept.push(Buffer.alloc(64 << 20));",
    ]);
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toMatch(/Array buffer allocation failed|out of memory/i);
  });

  it("cannot make namespaces, mount, or change its user", async () => {
    const result = await sh(
      "unshare --user --map-root-user true; unshare --net true; mount -t tmpfs none /tmp; nsenter -t 1 -a true",
    );
    expect(result.stderr.match(/unshare: unshare failed: Operation not permitted/g)).toHaveLength(2);
    expect(result.stderr).toMatch(/mount: \/tmp: must be superuser to use mount/);
    expect(result.stderr).toMatch(/nsenter: stat of \/proc\/1\/ns\/user failed: Permission denied/);
    expect((await sh("id -u; cat /proc/self/status | grep -E '^(CapEff|NoNewPrivs|Seccomp):'")).stdout).toBe(
      "1000\nCapEff:\t0000000000000000\nNoNewPrivs:\t1\nSeccomp:\t2\n",
    );
  });

  it("cannot read or stop the runtime's init, nor vf's side", async () => {
    const result = await sh(
      "cat /proc/1/environ; cat /proc/1/mem; cat /proc/1/fd/5; kill -STOP 1; kill -KILL 1; kill -STOP -1; echo still here",
    );
    expect(result.stderr).toMatch(/\/proc\/1\/environ: Permission denied/);
    expect(result.stderr).toMatch(/\/proc\/1\/mem: Permission denied/);
    expect(result.stderr).toMatch(/\/proc\/1\/fd\/5: Permission denied/);
    // The init (PID 1) takes no signal it does not handle; vf's side is outside the namespace.
    expect(result).toMatchObject({ exitCode: 0, stdout: "still here\n" });
    // A program that stops its own group is ended at its time limit; the runtime works on.
    expect(await sh("kill -STOP 0", { timeoutMs: 1000 })).toMatchObject({ exitCode: null, timedOut: true });
    expect(await sh("echo alive")).toMatchObject({ exitCode: 0, stdout: "alive\n" });
  });
});
