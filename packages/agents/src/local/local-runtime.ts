/**
 * The local sandbox runtime: each rollout gets a private folder with the task's files, and each
 * exec runs in namespaces of its own (user, pid, mount, network, IPC, UTS) on a private read-only
 * root that shows the system's programs, node, the runtime's /etc and the folder at /workspace; as
 * an ordinary user without capabilities, under resource limits and the system-call filter, with no
 * network but loopback, where the interception server's address and the task's allowed hosts lead
 * (through the runtime's forwarder) to the real ones. An exec lasts until its program ends, and
 * takes every process it started with it; nothing outlives `close()`, nor vf, even killed by
 * SIGKILL (the folder it leaves is removed by the next runtime made in the same temporary folder).
 *
 * @example
 * const factory = localRuntime({ readOnlyPaths: [cliPackageDir] });
 * const runtime = await factory.create(task, { interceptionUrl: "http://127.0.0.1:8123/v1" });
 * await runtime.exec(["node", "-e", "console.log(1)"]); // { exitCode: 0, stdout: "1\n", ... }
 * await runtime.close();
 */
import { spawn } from "node:child_process";
import { access, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, posix } from "node:path";
import type { Readable, Writable } from "node:stream";
import { SandboxError, UserError } from "@vf-rl/core";
import {
  AgentTask,
  type ExecOptions,
  type ExecResult,
  type Runtime,
  type RuntimeFactory,
} from "@vf-rl/core/agents";
import { type CollectedExec, collectExec } from "../exec/collect-exec.ts";
import { insidePath, readWorkFile, writeWorkFile, writeWorkFiles } from "../exec/work-folder.ts";
import { HostForwarder } from "../network/host-forwarder.ts";
import { hostsFile, networkPlan } from "../network/network-plan.ts";
import { removeHostFolder, removeStaleFolders } from "../sandbox/host-folder.ts";
import {
  launcherSource,
  type NamespaceCommand,
  namespaceCommand,
  setupFailure,
} from "../sandbox/namespace-command.ts";
import { namespaceInit } from "../sandbox/namespace-init.ts";
import { type ExecConfig, runtimeConfig } from "./exec-config.ts";
import { INSIDE, LocalRuntimeOptions, type LocalRuntimeOptionsInput } from "./local-options.ts";
import { createRuntimeFolder, ETC_MIRRORS, FOLDER_PREFIX, type RuntimeFolder } from "./runtime-folder.ts";

/**
 * The init's command: reads its config (the first line) and the launcher's source from fd 5, and
 * runs them as its main module.
 */
const BOOTSTRAP =
  "import os, sys\nwith os.fdopen(5, 'rb') as f:\n    config, source = f.read().split(b'\\n', 1)\nsys.argv[1:] = [config.decode()]\nexec(compile(source, 'vf-exec-init', 'exec'))";

/** How long close() waits for running execs to end after killing them. */
const CLOSE_WAIT_MS = 10_000;

/** A factory of local sandbox runtimes; see the file comment. */
export function localRuntime(options: LocalRuntimeOptionsInput = {}): RuntimeFactory {
  return new LocalRuntimeFactory(LocalRuntimeOptions.parse(options));
}

/** One sandbox start command and launcher source for all of a factory's runtimes, checked once. */
interface Launch {
  command: NamespaceCommand;
  source: string;
}

class LocalRuntimeFactory implements RuntimeFactory {
  readonly id = "local";
  /** The command and source every exec starts with, checked by a trial exec once. */
  private launch: Promise<Launch> | undefined;

  constructor(private readonly options: LocalRuntimeOptions) {}

  async create(
    task: AgentTask,
    options: { interceptionUrl: string; signal?: AbortSignal },
  ): Promise<Runtime> {
    this.launch ??= this.prepare();
    const launch = await this.launch.catch((error: unknown) => {
      this.launch = undefined; // the machine may be fixed before the next try
      throw error;
    });
    options.signal?.throwIfAborted();
    return this.open(task, options.interceptionUrl, launch);
  }

  private async open(task: AgentTask, interceptionUrl: string, launch: Launch): Promise<LocalRuntime> {
    const plan = networkPlan(interceptionUrl, task.network);
    const tempDir = this.options.tempDir ?? tmpdir();
    // Folders of hosts that died without cleaning up.
    await removeStaleFolders(tempDir, FOLDER_PREFIX);
    const folder = createRuntimeFolder({
      tempDir,
      sandboxUid: this.options.sandboxUid,
      hosts: hostsFile(plan),
      etcMirrors: ETC_MIRRORS,
    });
    let forwarder: HostForwarder | undefined;
    try {
      await writeWorkFiles(folder.work, task.files, { ownerUid: this.options.sandboxUid });
      forwarder = await HostForwarder.start(folder.net, plan.targets);
      const config = runtimeConfig(this.options, folder, plan, launch.command.syscallFilter);
      return new LocalRuntime(this.options, task, folder, forwarder, config, launch);
    } catch (error) {
      await forwarder?.close();
      await removeHostFolder(folder.path);
      throw error;
    }
  }

  /**
   * Checks the machine and the options, and runs a trial exec, so that a machine that cannot
   * confine a program is refused at the first runtime, before any agent starts.
   */
  private async prepare(): Promise<Launch> {
    for (const path of this.options.readOnlyPaths) {
      if (!(await exists(path))) {
        throw new UserError(
          `readOnlyPaths names ${path}, which does not exist: install the program there or fix the path`,
        );
      }
    }
    const command = await namespaceCommand({
      ...this.options,
      what: "the local agent runtime",
      // The program is never the namespace's PID 1 (exec-init.py forks it): its own parent-death
      // signal ties nothing, and Codex sets one for every command it runs.
      allowParentDeathSignal: true,
    });
    const stage = await readFile(new URL("./exec-init.py", import.meta.url), "utf8");
    const launch = { command, source: await launcherSource(stage) };
    const trial = await this.open(
      AgentTask.parse({ id: "trial", exampleId: 0, prompt: [] }),
      "http://127.0.0.1:9",
      launch,
    );
    try {
      const result = await trial.exec(["node", "-e", "process.stdout.write('ok')"], { timeoutMs: 30_000 });
      if (result.exitCode !== 0 || result.stdout !== "ok") {
        throw new SandboxError(
          `the local agent runtime started but could not run node (${JSON.stringify(result)}): check the node path (${this.options.node})`,
        );
      }
    } finally {
      await trial.close();
    }
    return launch;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** What the init said on its status pipe. */
type Status =
  | { type: "started" }
  | { type: "exit"; code: number }
  | { type: "signal"; signal: number }
  | { type: "exec_failed"; error: string }
  | { type: "setup_failed"; error: string };

class LocalRuntime implements Runtime {
  readonly workdir = INSIDE.workdir;
  private readonly running = new Set<Promise<unknown>>();
  /** Aborted by close(): every running exec stops as if cancelled. */
  private readonly closing = new AbortController();
  private closed = false;

  constructor(
    private readonly options: LocalRuntimeOptions,
    private readonly task: AgentTask,
    private readonly folder: RuntimeFolder,
    private readonly forwarder: HostForwarder,
    private readonly config: Omit<ExecConfig, "exec">,
    private readonly launch: Launch,
  ) {}

  async exec(argv: readonly string[], options: ExecOptions = {}): Promise<ExecResult> {
    if (this.closed)
      throw new SandboxError("the local runtime is closed: create another to run more programs");
    if (argv.length === 0) throw new SandboxError("exec needs a program: pass [program, ...args]");
    const cwd = options.cwd === undefined ? INSIDE.workdir : insidePath(INSIDE.workdir, options.cwd);
    const config: ExecConfig = {
      ...this.config,
      exec: { argv: [...argv], env: { ...this.baseEnv(), ...options.env }, cwd: posix.normalize(cwd) },
    };
    const [program, ...args] = this.launch.command.argv;
    // 0-1: the program's stdin and stdout; 2: what setpriv, unshare and the launcher say; 3: the
    // init's status lines; 4: the program's stderr (its fd 2 inside); 5: the config and the
    // launcher's source, read by a bootstrap (so that neither shows in the init's command line).
    const child = spawn(program as string, [...args, "-c", BOOTSTRAP], {
      stdio: [options.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe", "pipe", "pipe", "pipe"],
      detached: true,
      env: {},
    });
    const setup = (child.stdio as unknown as Writable[])[5] as Writable;
    setup.on("error", () => undefined); // an init that died early; its exit says why
    setup.end(`${JSON.stringify(config)}\n${this.launch.source}`);
    let launcherSaid = "";
    (child.stderr as Readable).on("data", (chunk: Buffer) => {
      launcherSaid = (launcherSaid + chunk.toString("utf8")).slice(-4000);
    });
    const statuses: Status[] = [];
    let pending = "";
    (child.stdio[3] as Readable).on("data", (chunk: Buffer) => {
      const lines = (pending + chunk.toString("utf8")).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) statuses.push(JSON.parse(line) as Status);
    });
    const kill = () => killNamespace(child.pid, child.exitCode !== null || child.signalCode !== null);
    const collected = collectExec(child, {
      stdout: child.stdout as Readable,
      stderr: child.stdio[4] as Readable,
      stdin: options.stdin,
      timeoutMs: options.timeoutMs ?? this.task.limits.timeSeconds * 1000,
      signal: options.signal ? AbortSignal.any([options.signal, this.closing.signal]) : this.closing.signal,
      maxOutputBytes: this.options.maxOutputBytes,
      kill,
    });
    this.running.add(collected);
    try {
      return interpret(await collected, statuses, launcherSaid, argv[0] as string);
    } finally {
      this.running.delete(collected);
    }
  }

  readFile(path: string): Promise<string | null> {
    return readWorkFile(this.folder.work, path);
  }

  writeFile(path: string, content: string): Promise<void> {
    return writeWorkFile(this.folder.work, path, content, { ownerUid: this.options.sandboxUid });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.closing.abort();
    const done = Promise.all([...this.running]);
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([
      done.then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), CLOSE_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
    await this.forwarder.close();
    await removeHostFolder(this.folder.path);
    if (!ended) {
      throw new SandboxError(
        `a program of the local runtime did not end within ${CLOSE_WAIT_MS / 1000} s of SIGKILL: a process is stuck in the kernel; check the machine (ps -eo pid,stat,wchan,cmd)`,
      );
    }
  }

  /** What every program inside starts with; `ExecOptions.env` adds to it. */
  private baseEnv(): Record<string, string> {
    const nodeDir = dirname(this.options.node);
    const path = ["/usr/local/bin", "/usr/bin", "/bin"];
    if (!path.includes(nodeDir)) path.unshift(nodeDir);
    return {
      PATH: path.join(":"),
      HOME: INSIDE.home,
      USER: INSIDE.user,
      LOGNAME: INSIDE.user,
      SHELL: "/bin/sh",
      TMPDIR: INSIDE.tmp,
      LANG: "C.UTF-8",
    };
  }
}

/** The ExecResult of an exec, from what the runtime collected and what the init said. */
function interpret(
  collected: CollectedExec,
  statuses: Status[],
  launcherSaid: string,
  program: string,
): ExecResult {
  const { stopped, timedOut, stdout } = collected;
  let { exitCode, stderr } = collected;
  const said = statuses.find((s) => s.type !== "started" && s.type !== "exit" && s.type !== "signal");
  const started = statuses.some((s) => s.type === "started");
  if (said?.type === "setup_failed" || (!started && said === undefined && stopped === null)) {
    const line = said?.error ?? launcherSaid.trim().split("\n").at(-1) ?? `exit code ${exitCode}`;
    const unreachable = /^mounting (\S+) on \S+ failed: Permission denied/.exec(line)?.[1];
    if (unreachable) {
      throw new SandboxError(
        `the local agent runtime cannot show ${unreachable} inside: the sandbox's user cannot reach it (when vf runs as root, the sandbox runs as sandboxUid); make it and the folders above it readable by every user (chmod o+rx) or move it`,
      );
    }
    throw (
      setupFailure("the local agent runtime", line) ??
      new SandboxError(
        `the local agent runtime could not confine the program (${line.replace(/^vf-sandbox: /, "")}): check that user namespaces may mount here, or run on another machine`,
      )
    );
  }
  if (said?.type === "exec_failed") {
    return { exitCode: 127, stdout, stderr: `${stderr}${program}: ${said.error}\n`, timedOut };
  }
  const signal = statuses.find((s) => s.type === "signal");
  if (signal?.type === "signal" && stopped === null) {
    exitCode = null;
    stderr += `[vf: the program was killed by signal ${signal.signal}]\n`;
  }
  return { exitCode, stdout, stderr, timedOut };
}

/**
 * Kills an exec: the namespace's PID 1 (the init), whose end makes the kernel end every process of
 * the namespace; before unshare has forked it, unshare's process group. Nothing to do once unshare
 * has exited, since it waits for PID 1.
 */
function killNamespace(unsharePid: number | undefined, exited: boolean): void {
  if (unsharePid === undefined || exited) return;
  const init = namespaceInit(unsharePid);
  try {
    process.kill(init ?? -unsharePid, "SIGKILL");
  } catch {
    // Already gone.
  }
}
