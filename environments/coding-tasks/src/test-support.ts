/**
 * For this package's tests only (never built or shipped): a `Runtime` that is a temporary folder
 * and child processes on this machine. It is NOT a sandbox: no namespaces, no network policy, the
 * host's PATH. It stands in for @vf-rl/agents' runtimes, which the taskset is meant to run in.
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import type {
  AgentScoreContext,
  AgentTask,
  ExecOptions,
  ExecResult,
  Runtime,
  RuntimeFactory,
} from "@vf-rl/core/agents";

/** What a `TempFolderRuntime` is made with. */
export interface TempFolderOptions {
  /** PATH of its processes; default the host's. */
  path?: string;
  /** Default time limit of `exec`, in milliseconds; default the task's time limit. */
  timeoutMs?: number;
}

/** A temporary folder holding a task's files, and processes run in it; see the file comment. */
export class TempFolderRuntime implements Runtime {
  private constructor(
    readonly workdir: string,
    private readonly options: Required<TempFolderOptions>,
  ) {}

  /** A fresh folder under the system's temporary folder, holding `task.files`. */
  static async create(task: AgentTask, options: TempFolderOptions = {}): Promise<TempFolderRuntime> {
    const workdir = await mkdtemp(join(tmpdir(), "vf-coding-tasks-"));
    const runtime = new TempFolderRuntime(workdir, {
      path: options.path ?? process.env.PATH ?? "/usr/bin:/bin",
      timeoutMs: options.timeoutMs ?? task.limits.timeSeconds * 1000,
    });
    for (const [path, content] of Object.entries(task.files)) await runtime.writeFile(path, content);
    return runtime;
  }

  /** Runs `argv` in its own process group, killed whole at the time limit; a missing program exits 127. */
  exec(argv: readonly string[], options: ExecOptions = {}): Promise<ExecResult> {
    const [program, ...args] = argv;
    if (program === undefined) throw new Error("exec needs a program to run");
    const child = spawn(program, args, {
      cwd: this.#inside(options.cwd ?? "."),
      env: { PATH: this.options.path, HOME: this.workdir, ...options.env },
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.stdin.end(options.stdin ?? "");
    let timedOut = false;
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // The group has ended already.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs ?? this.options.timeoutMs);
    options.signal?.addEventListener("abort", killGroup, { once: true });
    return new Promise((resolvePromise) => {
      const finish = (exitCode: number | null, extra = "") => {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", killGroup);
        resolvePromise({
          exitCode,
          stdout: Buffer.concat(stdout).toString("utf8"),
          stderr: Buffer.concat(stderr).toString("utf8") + extra,
          timedOut,
        });
      };
      // As a shell says it: a program that is not there exits 127.
      child.on("error", (error) => finish(127, `${program}: ${error.message}\n`));
      child.on("close", (code) => finish(timedOut ? null : code));
    });
  }

  async readFile(path: string): Promise<string | null> {
    try {
      return await readFile(this.#inside(path), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  async writeFile(path: string, content: string): Promise<void> {
    const file = this.#inside(path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, content);
  }

  async close(): Promise<void> {
    await rm(this.workdir, { recursive: true, force: true });
  }

  /** `path` resolved in the working folder; one that leaves it is a mistake of the test. */
  #inside(path: string): string {
    const full = resolve(this.workdir, path);
    if (relative(this.workdir, full).startsWith("..")) throw new Error(`${path} is outside ${this.workdir}`);
    return full;
  }
}

/** Makes a `TempFolderRuntime` per rollout. */
export const tempFolderRuntimes: RuntimeFactory = {
  id: "temp-folder (tests only)",
  create: (task) => TempFolderRuntime.create(task),
};

/**
 * A trace for `score`, which reads only the runtime: an agent that made no model call and ended on
 * its own (the fields of the trace it does not read are left out).
 */
export const unreadTrace = {
  calls: [],
  stop: "agent_completed",
  errors: [],
  exitCode: 0,
  output: "",
} as unknown as AgentScoreContext["trace"];
