// Attempts to get out of the sandbox, each made as a model's tool call in a real rollout against a
// scripted model on loopback. Every attempt must come back as a tool error that names the limit it
// hit, and the rollout must go on: the model's next call still works.
import { chmod, existsSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { REFUSED_CALLS, syscallNumber } from "@vf-rl/agents/sandbox";
import { contentText, type Environment, OpenAIModelClient } from "@vf-rl/core";
import { type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadEnvironment } from "./index.ts";
import type { PythonData } from "./python-tool.ts";
import { sandboxProcesses } from "./sandbox/test-support.ts";

let scratch: string;
let server: ScriptedServer;
let env: Environment<PythonData>;
/** The code of the model's calls in the next rollout, one per turn; then it answers. */
let calls: string[] = [];

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "vf-python-escapes-"));
  await promisify(chmod)(scratch, 0o755);
  server = await startScriptedServer({
    reply: (request) => {
      const turn = request.messages.filter((m) => m.role === "assistant").length;
      const code = calls[turn];
      if (code === undefined) return "The answer is \\boxed{0}.";
      return { type: "message", content: null, toolCalls: [{ name: "python", arguments: { code } }] };
    },
  });
  env = await loadEnvironment({ numEval: 1, timeoutSeconds: 2, tempDir: scratch });
});
afterAll(async () => {
  await server.close();
  await rm(scratch, { recursive: true, force: true });
});

/** Runs one rollout whose model makes `code` calls in order; returns what each call gave back. */
async function rollout(...code: string[]): Promise<string[]> {
  calls = code;
  const { inputs } = await env.inputs({ split: "eval", numExamples: 1 });
  const client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY" });
  const state = await env.rollout(inputs[0]!, { client, model: "scripted" });
  expect(state.error).toBeNull();
  // The rollout's folder and processes are gone once it has ended.
  expect(await readdir(scratch)).toEqual([]);
  expect(await sandboxProcesses(scratch)).toEqual([]);
  return state.completion.filter((m) => m.role === "tool").map((m) => contentText(m.content));
}

const STILL_WORKS = "print('still works')";

describe("the python sandbox holds", () => {
  it("cannot read the host's files: /etc/passwd, the repository, the root folder, the host name", async () => {
    const thisFile = fileURLToPath(import.meta.url);
    const [passwd, repo, root, hostname, next] = await rollout(
      "print(open('/etc/passwd').read())",
      `print(open(${JSON.stringify(thisFile)}).read())`,
      "import os\nsorted(os.listdir('/'))",
      "import socket\nsocket.gethostname()",
      STILL_WORKS,
    );
    expect(passwd).toMatch(/^Error: python failed: not found: the sandbox sees only \/sandbox/);
    expect(passwd).toMatch(/FileNotFoundError: .*'\/etc\/passwd'/);
    expect(passwd).not.toMatch(/root:/);
    expect(repo).toMatch(/^Error: python failed: not found: the sandbox sees only \/sandbox/);
    expect(root).toBe("['dev', 'lib', 'lib64', 'sandbox', 'usr']\n");
    expect(hostname).toBe("'sandbox'\n");
    expect(next).toBe("still works\n");
  });

  it("cannot write outside its folder: not in /, the host's /tmp, or Python's own files", async () => {
    const marker = join(tmpdir(), `vf-escape-${process.pid}`);
    const [rootDir, hostTmp, stdlib, own, next] = await rollout(
      "open('/escaped.txt', 'w').write('x')",
      `open(${JSON.stringify(marker)}, 'w').write('x')`,
      "import os\nopen(os.path.join(os.path.dirname(os.__file__), 'escaped.py'), 'w').write('x')",
      "open('/sandbox/mine.txt', 'w').write('fine')",
      STILL_WORKS,
    );
    expect(rootDir).toMatch(/^Error: python failed: not permitted: only \/sandbox .* is writable/);
    expect(rootDir).toMatch(/Read-only file system/);
    expect(hostTmp).toMatch(/^Error: python failed: .*(not found|not permitted)/);
    expect(stdlib).toMatch(/Read-only file system/);
    expect(own).toBe("4\n");
    expect(next).toBe("still works\n");
    expect(existsSync(marker)).toBe(false);
  });

  it("cannot open a socket to a server on this machine's loopback", async () => {
    let connections = 0;
    const listener: Server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    const port = (listener.address() as { port: number }).port;
    try {
      const [connect, resolve, next] = await rollout(
        `import socket\nsocket.create_connection(('127.0.0.1', ${port}), timeout=1)`,
        "import socket\nsocket.getaddrinfo('example.com', 80)",
        STILL_WORKS,
      );
      expect(connect).toMatch(/^Error: python failed: no network: the sandbox cannot reach any host/);
      expect(connect).toMatch(/Network is unreachable/);
      expect(resolve).toMatch(/^Error: python failed: no network/);
      expect(next).toBe("still works\n");
      expect(connections).toBe(0);
    } finally {
      listener.close();
    }
  });

  it("stops a fork bomb at the process limit", async () => {
    const [bomb, next] = await rollout("import os\nwhile True:\n    os.fork()", STILL_WORKS);
    expect(bomb).toMatch(/^Error: python failed: process limit reached: at most 16 processes and threads/);
    expect(next).toBe("still works\n");
  });

  it("stops an endless loop or sleep at the time limit, and the sandbox keeps its variables", async () => {
    const [, spin, sleep, kept] = await rollout(
      "x = 5",
      "while True:\n    pass",
      "import time\ntime.sleep(600)",
      "x",
    );
    expect(spin).toMatch(
      /^Error: python failed: time limit reached: a call may run 2 s \(the sandbox and its variables live on\)/,
    );
    expect(sleep).toMatch(/^Error: python failed: time limit reached: a call may run 2 s/);
    expect(kept).toBe("5\n");
  });

  it("kills a loop that ignores the time limit, and restarts the sandbox for the next call", async () => {
    const [, stubborn, lost, after] = await rollout(
      "x = 5",
      "import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\nwhile True:\n    pass",
      "x",
      STILL_WORKS,
    );
    expect(stubborn).toMatch(
      /^Error: python failed: time limit reached: a call may run 2 s, and this one did not stop/,
    );
    expect(lost).toMatch(/NameError: name 'x' is not defined/);
    expect(after).toBe("still works\n");
  });

  it("stops a 10 GB allocation at the memory limit", async () => {
    const [allocate, next] = await rollout("data = bytearray(10 * 1024**3)", STILL_WORKS);
    expect(allocate).toMatch(
      /^Error: python failed: memory limit reached: each process in the sandbox may use 512 MB/,
    );
    expect(allocate).toMatch(/MemoryError/);
    expect(next).toBe("still works\n");
  });

  it("cannot hold memory the limit does not count: no memfd, shared memory, /dev/shm or bigger socket buffers", async () => {
    const [memfd, shm, devShm, socketBuffer, next] = await rollout(
      "import os\nos.memfd_create('hoard')",
      "import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\nif libc.shmget(0, 16 << 20, 0o1600) < 0:\n    raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))",
      "open('/dev/shm/hoard', 'wb').write(bytes(16 << 20))",
      "import socket\nsocket.socketpair()[0].setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 30)",
      STILL_WORKS,
    );
    for (const answer of [memfd, shm, socketBuffer]) {
      expect(answer).toMatch(
        /^Error: python failed: not permitted: .*PermissionError: \[Errno 1\] Operation not permitted$/s,
      );
    }
    expect(devShm).toMatch(/^Error: python failed: not found: .*'\/dev\/shm\/hoard'$/s);
    expect(next).toBe("still works\n");
  });

  it("cannot use privileges: no chroot, no mount, no new user id", async () => {
    const [chrootCall, mountCall, setuid, next] = await rollout(
      "import os\nos.chroot('/sandbox')",
      "import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\nif libc.mount(b'none', b'/sandbox', b'tmpfs', 0, None) != 0:\n    raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))",
      "import os\nos.setuid(1000)",
      STILL_WORKS,
    );
    expect(chrootCall).toMatch(/^Error: python failed: not permitted.*\n.*\n.*PermissionError: \[Errno 1\]/s);
    expect(mountCall).toMatch(
      /^Error: python failed: not permitted.*PermissionError: \[Errno 1\] Operation not permitted/s,
    );
    expect(setuid).toMatch(/^Error: python failed: .*(Invalid argument|Operation not permitted)/s);
    expect(next).toBe("still works\n");
  });

  it("cannot make a nested user namespace, so no mount, chroot or network of its own through one", async () => {
    const CLONE_NEWUSER = 0x10000000;
    const CLONE_NEWNS = 0x00020000;
    const CLONE_NEWNET = 0x40000000;
    const SIGCHLD = 17;
    const calling = [
      "import ctypes, os",
      "libc = ctypes.CDLL(None, use_errno=True)",
      "def check(what, result):",
      "    if result < 0:",
      "        raise OSError(ctypes.get_errno(), f'{what}: {os.strerror(ctypes.get_errno())}')",
    ].join("\n");
    const unshare = (flags: number, then: string) =>
      `${calling}\ncheck('unshare', libc.unshare(${flags}))\n${then}`;
    const [mount, chroot, network, clone, next] = await rollout(
      unshare(
        CLONE_NEWUSER | CLONE_NEWNS,
        "check('mount', libc.mount(b'none', b'/sandbox', b'tmpfs', 0, None))\nprint('mounted a tmpfs')",
      ),
      unshare(CLONE_NEWUSER, "os.chroot('/sandbox')\nprint('changed its root')"),
      unshare(CLONE_NEWUSER | CLONE_NEWNET, "print('has a network namespace of its own')"),
      // The raw clone system call, as a C library's fork would make it, with a namespace flag.
      `${calling}\npid = libc.syscall(${syscallNumber("clone")}, ${CLONE_NEWUSER | SIGCHLD}, 0, 0, 0, 0)\nif pid == 0:\n    os._exit(0)\ncheck('clone', pid)\nos.waitpid(pid, 0)\nprint('cloned into a new user namespace')`,
      STILL_WORKS,
    );
    for (const answer of [mount, chroot, network]) {
      expect(answer).toMatch(
        /^Error: python failed: not permitted: .*PermissionError: \[Errno 1\] unshare: Operation not permitted$/s,
      );
    }
    expect(clone).toMatch(
      /^Error: python failed: not permitted: .*\[Errno 1\] clone: Operation not permitted$/s,
    );
    expect(next).toBe("still works\n");
  });

  it("refuses the kernel's riskier interfaces, and clearing the signal that ends it with its host", async () => {
    const calls = Object.values(REFUSED_CALLS)
      .flat()
      .map((name) => `(${JSON.stringify(name)}, ${syscallNumber(name)})`);
    const PR_SET_PDEATHSIG = 1;
    const [refused, pdeathsig] = await rollout(
      [
        "import ctypes, errno",
        "libc = ctypes.CDLL(None, use_errno=True)",
        "allowed = []",
        `for name, number in [${calls.join(", ")}]:`,
        "    if libc.syscall(number, 0, 0, 0, 0, 0) != -1 or ctypes.get_errno() != errno.EPERM:",
        "        allowed.append(name)",
        "allowed",
      ].join("\n"),
      `import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\nlibc.prctl(${PR_SET_PDEATHSIG}, 0, 0, 0, 0), ctypes.get_errno()`,
    );
    expect(refused).toBe("[]\n");
    expect(pdeathsig).toBe("(-1, 1)\n");
  });

  it("cannot stop vf's side of the sandbox with a signal, so the rollout and its clean-up end", async () => {
    const [group, everyone, next] = await rollout(
      "import os, signal\nos.kill(0, signal.SIGSTOP)\nprint('sent')",
      // A child stops every process it can name, then its process group.
      "import os, signal\nif os.fork() == 0:\n    os.kill(-1, signal.SIGSTOP)\n    os.killpg(0, signal.SIGSTOP)\n    os._exit(0)\nprint('sent')",
      STILL_WORKS,
    );
    expect(group).toBe("sent\n");
    expect(everyone).toBe("sent\n");
    expect(next).toBe("still works\n");
  });

  it("cannot keep a process into the next call by disabling the sandbox's own clean-up", async () => {
    const [left, next] = await rollout(
      "import subprocess, sys\nsys.modules['__main__'].kill_strays = lambda: None\nsubprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'])\nprint('started')",
      // PID 1 signals every other process of its namespace: there is none.
      "import os\ntry:\n    os.kill(-1, 0)\n    print('another process lives')\nexcept ProcessLookupError:\n    print('alone')",
    );
    expect(left).toMatch(
      /^Error: python failed: processes left running: every process a call starts ends with the call; 1 process outlived this one .*, so the sandbox was restarted/,
    );
    expect(left).toMatch(/\nOutput of the call:\nstarted\n$/);
    expect(next).toBe("alone\n");
  });

  it("cannot flood the host through the answer pipe: 200 MB there stop the sandbox with a clear error", async () => {
    const [flood, next] = await rollout(
      "import os, sys\nanswers = sys.modules['__main__'].responses\nchunk = b'x' * (1 << 20)\nfor _ in range(200):\n    os.write(answers, chunk)",
      STILL_WORKS,
    );
    expect(flood).toBe(
      "Error: python failed: the sandbox stopped (the code wrote more than 1 MiB to the sandbox's answer pipe, longer than any real answer); it restarts on the next call, without the variables and imports (files in /sandbox remain)",
    );
    expect(next).toBe("still works\n");
  });
});
