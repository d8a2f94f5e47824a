/**
 * One confined Python process (a persistent REPL) for one rollout. `start` launches it inside Linux
 * namespaces with a private read-only root, resource limits, no capabilities and a system-call
 * filter (see launcher.py), and waits until it is ready; `run` sends code and waits for its answer
 * (the worker stops code at the call's time limit; the host kills the whole sandbox when the code
 * does not stop, or leaves threads or processes running); `close` kills it and resolves once every
 * process of it is gone. The sandbox dies with its host process however that ends
 * (sandbox-command.ts), and starting one removes the folders that dead hosts left behind. Calls run
 * one at a time, in order.
 *
 * @example
 * const folder = createSandboxFolder({ sandboxUid: 65534 });
 * const sandbox = await PythonSandbox.start(folder, SandboxOptions.parse({}));
 * await sandbox.run("x = 6 * 7\nx"); // { type: "ok", output: "42\n", ... }
 * await sandbox.close();
 */
import { type ChildProcess, spawn } from "node:child_process";
import { dirname } from "node:path";
import type { Readable, Writable } from "node:stream";
import {
  InitProbe,
  namespaceInit,
  processState,
  removeStaleFolders,
  setupFailure,
} from "@vf-rl/agents/sandbox";
import { SandboxError } from "@vf-rl/core";
import { AnswerLines } from "./answer-lines.ts";
import type { RunResult, WorkerAnswer } from "./run-result.ts";
import { WorkerAnswer as WorkerAnswerSchema } from "./run-result.ts";
import { sandboxCommand } from "./sandbox-command.ts";
import { FOLDER_PREFIX, type SandboxFolder } from "./sandbox-folder.ts";
import type { SandboxOptions } from "./sandbox-options.ts";

/** Wall time past a call's limit before the host kills the sandbox: the worker's timer goes first. */
const GRACE_MS = 1500;
/** Output bytes the worker reads back per call. */
const MAX_OUTPUT_BYTES = 64 * 1024;
/**
 * The longest answer line accepted from the worker. Its real answers stay far below (64 KiB of
 * output and 16 KiB each of error and traceback, JSON-escaped); a longer line is the code writing
 * to the answer pipe, and ends the sandbox.
 */
export const MAX_ANSWER_BYTES = 1024 * 1024;
/** How long threads that ended with the call may take to leave the kernel's count. */
const THREAD_EXIT_MS = 1000;
/** How long close() waits for the sandbox to end after a kill before the next, stronger one. */
const CLOSE_WAIT_MS = 5000;

/** What ends a wait: the worker's answer, its exit, or a line past MAX_ANSWER_BYTES. */
type Outcome = WorkerAnswer | { type: "exit"; detail: string } | { type: "overflow"; detail: string };
type Waiter = (outcome: Outcome) => void;

export class PythonSandbox {
  private readonly waiters: Waiter[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private exited = false;
  private exitDetail = "";
  private stderr = "";
  /** The threads and children of the namespace's PID 1 (the worker), once it is ready. */
  private init: InitProbe | undefined;

  private constructor(
    private readonly child: ChildProcess,
    private readonly options: SandboxOptions,
  ) {
    this.listen();
  }

  /**
   * Starts a sandbox whose /sandbox is `folder.work`. Throws a `SandboxError` when this machine
   * cannot confine it (missing programs, user namespaces not allowed, a mount refused).
   */
  static async start(folder: SandboxFolder, options: SandboxOptions): Promise<PythonSandbox> {
    const command = await sandboxCommand(options);
    // Folders that hosts which died without cleaning up left beside this one.
    await removeStaleFolders(dirname(folder.path), FOLDER_PREFIX);
    const config = {
      python: options.python,
      root: folder.root,
      work: folder.work,
      memory_bytes: options.memoryMb * 1024 * 1024,
      max_processes: options.maxProcesses,
      max_file_bytes: options.maxFileMb * 1024 * 1024,
      max_open_files: options.maxOpenFiles,
      max_output_bytes: MAX_OUTPUT_BYTES,
      syscall_filter: command.syscallFilter,
    };
    const [program, ...args] = command.argv;
    const child = spawn(program!, [...args, JSON.stringify(config), command.workerSource], {
      // Requests on stdin, answers on fd 3; stdout stays unused; stderr carries setup failures.
      stdio: ["pipe", "ignore", "pipe", "pipe"],
      detached: true,
      env: {},
    });
    const sandbox = new PythonSandbox(child, options);
    const ready = await sandbox.next(options.startupSeconds * 1000);
    if (ready.type !== "ready") {
      await sandbox.close();
      throw sandbox.startFailure(ready);
    }
    const init = child.pid === undefined ? undefined : namespaceInit(child.pid);
    sandbox.init = init === undefined ? undefined : InitProbe.open(init);
    return sandbox;
  }

  /** Whether the sandbox process is still running. */
  get alive(): boolean {
    return !this.exited;
  }

  /**
   * Runs `code`; resolves with its result. Rejects only with close()'s `SandboxError`, when a
   * sandbox the call had to stop cannot be killed. A cancelled `signal` closes the sandbox.
   */
  run(code: string, options: { signal?: AbortSignal } = {}): Promise<RunResult> {
    const result = this.queue.then(() => this.runNow(code, options.signal));
    this.queue = result.catch(() => undefined);
    return result;
  }

  /**
   * Kills the sandbox and every process in it; resolves once all of them are gone. Every wait is
   * bounded: a sandbox that outlives SIGKILL by `CLOSE_WAIT_MS` twice over (stuck in the kernel)
   * rejects with a `SandboxError` instead of hanging vf.
   */
  async close(): Promise<void> {
    // A process that never spawned has no pid, and emits no exit.
    const pid = this.child.pid;
    if (this.exited || pid === undefined) return;
    // Killing the namespace's PID 1 makes the kernel kill every process of the namespace, and PID 1
    // is gone only after all of them are; unshare, which waits for it, then exits. So the exit of
    // our child means that nothing of the sandbox is left. (Killing unshare itself would not wait.)
    const init = namespaceInit(pid);
    // Before unshare has forked there is no namespace: its process group is all there is.
    if (init === undefined || !kill(init)) kill(-pid);
    if (await this.exitWithin(CLOSE_WAIT_MS)) return;
    // unshare did not reap PID 1: something stopped it (the sandbox cannot: it has a session of its
    // own). Killed, unshare waits for nothing, so the end of PID 1 is watched here instead.
    kill(-pid);
    if (
      (await this.exitWithin(CLOSE_WAIT_MS)) &&
      (init === undefined || (await ended(init, CLOSE_WAIT_MS)))
    ) {
      return;
    }
    throw new SandboxError(
      `the Python sandbox (pid ${pid}) did not end within ${(2 * CLOSE_WAIT_MS) / 1000} s of SIGKILL: a process of it is stuck in the kernel; check the machine (ps -o pid,stat,wchan -p ${init ?? pid})`,
    );
  }

  /** Whether the sandbox's host-side process exits within `ms`. */
  private exitWithin(ms: number): Promise<boolean> {
    if (this.exited) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.child.off("exit", onExit);
        resolve(this.exited);
      }, ms);
      const onExit = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.child.once("exit", onExit);
    });
  }

  private async runNow(code: string, signal: AbortSignal | undefined): Promise<RunResult> {
    const start = performance.now();
    const ms = () => Math.round(performance.now() - start);
    if (this.exited) return { type: "crashed", detail: this.exitDetail, ms: 0 };
    if (signal?.aborted) {
      await this.close();
      return { type: "crashed", detail: "the call was cancelled", ms: 0 };
    }
    // Checked after every call, the worker can still start a process between calls, from a signal
    // handler the code left it: such a process ends the sandbox before more code runs.
    const between = this.init?.childCount() ?? 0;
    if (between > 0) {
      await this.close();
      const count = between === 1 ? "a process" : `${between} processes`;
      return {
        type: "crashed",
        detail: `${count} that the code started after its last call ended were running, and were ended with the sandbox`,
        ms: ms(),
      };
    }
    const timeoutMs = this.options.timeoutSeconds * 1000 + GRACE_MS;
    // The abort's close, if it fails, fails again (and is reported) in the rollout's cleanup.
    const onAbort = () => void this.close().catch(() => undefined);
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const request = { code, seconds: this.options.timeoutSeconds };
      (this.child.stdin as Writable).write(`${JSON.stringify(request)}\n`);
      const answer = await this.next(timeoutMs);
      if (answer.type === "ok" || answer.type === "error") {
        // Usually none, known without waiting; else given time to end.
        const threads =
          answer.threads > 0 || this.extraThreads() === 0 ? answer.threads : await this.threadsLeft();
        if (threads > 0) {
          // A thread cannot be stopped alone, and would run on outside any call's limit.
          await this.close();
          const { output, output_bytes: outputBytes } = answer;
          const { timeoutSeconds } = this.options;
          return { type: "threads", output, outputBytes, threads, timeoutSeconds, ms: ms() };
        }
        // The worker kills and reaps every process the code started before it answers; one still
        // there means the code, which runs in the worker's process, undid that. The host ends them,
        // out of the code's reach, with the namespace.
        const processes = this.init?.childCount() ?? 0;
        if (processes > 0) {
          await this.close();
          const { output, output_bytes: outputBytes } = answer;
          return { type: "processes", output, outputBytes, processes, ms: ms() };
        }
      }
      switch (answer.type) {
        case "ok":
          return { type: "ok", output: answer.output, outputBytes: answer.output_bytes, ms: ms() };
        case "error":
          return {
            type: "error",
            output: answer.output,
            outputBytes: answer.output_bytes,
            error: answer.error,
            traceback: answer.traceback,
            limit: answer.limit,
            ms: ms(),
          };
        case "timeout":
          await this.close();
          return { type: "timeout", timeoutSeconds: this.options.timeoutSeconds, ms: ms() };
        case "exit":
          return {
            type: "crashed",
            detail: signal?.aborted ? "the call was cancelled" : answer.detail,
            ms: ms(),
          };
        case "overflow":
          await this.close();
          return { type: "crashed", detail: answer.detail, ms: ms() };
        case "worker_error":
          await this.close();
          return { type: "crashed", detail: `the sandbox's worker failed: ${answer.error}`, ms: ms() };
        default:
          // A second "ready": the worker restarted behind our back, losing its state.
          await this.close();
          return { type: "crashed", detail: "the sandbox answered out of turn", ms: ms() };
      }
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /**
   * Threads the code started that outlive its call come in two kinds: those the worker counted
   * (Python's, still running at the time limit), and those the kernel still counts beside the
   * worker's own thread (threads made below Python, which the worker cannot see).
   */
  private extraThreads(): number {
    return Math.max(0, (this.init?.threadCount() ?? 1) - 1);
  }

  /** The kernel's extra threads once threads that ended with the call have had time to go. */
  private async threadsLeft(): Promise<number> {
    const until = performance.now() + THREAD_EXIT_MS;
    while (this.extraThreads() > 0 && performance.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return this.extraThreads();
  }

  /** The next line from the worker, or why none came (exit, or `timeoutMs` passed). */
  private next(timeoutMs: number): Promise<Outcome | { type: "timeout" }> {
    if (this.exited) return Promise.resolve({ type: "exit", detail: this.exitDetail });
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        resolve({ type: "timeout" });
      }, timeoutMs);
      const waiter: Waiter = (answer) => {
        clearTimeout(timer);
        resolve(answer);
      };
      this.waiters.push(waiter);
    });
  }

  private listen(): void {
    const answers = this.child.stdio[3] as Readable;
    const lines = new AnswerLines({
      maxBytes: MAX_ANSWER_BYTES,
      onLine: (line) => {
        const parsed = WorkerAnswerSchema.safeParse(safeJson(line));
        const answer: WorkerAnswer = parsed.success
          ? parsed.data
          : { type: "worker_error", error: `unreadable answer from the sandbox: ${line.slice(0, 200)}` };
        this.waiters.shift()?.(answer);
      },
      onOverflow: () => {
        // Nothing more is read: the sandbox is stopped, by the call that waits or right here.
        answers.destroy();
        const detail = `the code wrote more than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB to the sandbox's answer pipe, longer than any real answer`;
        const waiter = this.waiters.shift();
        if (waiter) waiter({ type: "overflow", detail });
        else void this.close().catch(() => undefined); // a failing close fails again in the next one
      },
    });
    answers.on("data", (chunk: Buffer) => lines.push(chunk));
    (this.child.stderr as Readable).on("data", (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString("utf8")).slice(-4000);
    });
    this.child.stdin?.on("error", () => undefined);
    this.child.on("error", (error) => this.onExit(`could not start ${error.message}`));
    this.child.on("exit", (code, signal) => {
      this.onExit(signal ? `the sandbox was killed (${signal})` : `the sandbox exited with status ${code}`);
    });
  }

  private onExit(detail: string): void {
    if (this.exited) return;
    this.exited = true;
    this.init?.close();
    this.exitDetail = detail;
    for (const waiter of this.waiters.splice(0)) waiter({ type: "exit", detail });
  }

  /** A SandboxError saying why the sandbox did not become ready, from the launcher's own words. */
  private startFailure(outcome: { type: string; detail?: string; error?: string }): SandboxError {
    const said = this.stderr.trim().split("\n").filter(Boolean).at(-1) ?? "";
    const machine = setupFailure("the Python sandbox", said);
    if (machine) return machine;
    if (said.startsWith("vf-sandbox:")) {
      return new SandboxError(
        `the Python sandbox could not confine Python (${said.slice("vf-sandbox: ".length)}): check that user namespaces may mount here, or run on another machine`,
      );
    }
    const why =
      outcome.type === "timeout"
        ? `it was not ready after ${this.options.startupSeconds} s`
        : (outcome.error ?? outcome.detail ?? outcome.type);
    return new SandboxError(
      `the Python sandbox did not start: ${why}${said ? ` (${said})` : ""}: check the python, unshare and setpriv paths, or raise startupSeconds on a slow machine`,
    );
  }
}

/** Sends SIGKILL to a process (or a group, for a negative pid); false when there is none. */
function kill(pid: number): boolean {
  try {
    process.kill(pid, "SIGKILL");
    return true;
  } catch {
    return false;
  }
}

/** Whether the process `pid` has ended (gone, or a zombie) within `ms`, looking every 10 ms. */
async function ended(pid: number, ms: number): Promise<boolean> {
  const until = performance.now() + ms;
  for (;;) {
    const state = processState(pid);
    if (state === undefined || state === "Z") return true;
    if (performance.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
