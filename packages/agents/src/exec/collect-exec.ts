/**
 * Waits for one started program of a runtime and turns what happened into an `ExecResult`: its
 * output (each stream kept up to a limit; past it the program is stopped, as a flood would
 * otherwise hold vf's memory and a core), its exit code, and whether its time ran out or it was
 * cancelled. Every runtime spawns its own way and hands the child here with how to end it and
 * everything it started.
 */
import type { ChildProcess } from "node:child_process";
import type { Readable } from "node:stream";
import type { ExecResult } from "@vf-rl/core/agents";

/** How long the output pipes may stay open after the program ended (a child it left holds them). */
const DRAIN_MS = 2000;

/** How to wait for a program; see `collectExec`. */
export interface CollectOptions {
  /** The program's output pipes (a runtime may give it others than the child's own stdout and stderr). */
  stdout: Readable;
  stderr: Readable;
  /** Written to its stdin, which is then closed; none: stdin was not a pipe. */
  stdin?: string | undefined;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Bytes kept of each of stdout and stderr; past them the program is stopped. */
  maxOutputBytes: number;
  /** Ends the program and every process it started (a namespace, a process group, a container's). */
  kill: () => void;
}

/** An `ExecResult`, and why the runtime stopped the program, if it did. */
export interface CollectedExec extends ExecResult {
  stopped: "timeout" | "cancelled" | "output" | null;
}

/** Collects `child`'s output and end; never rejects (a spawn error is exit code 127 with its message). */
export function collectExec(child: ChildProcess, options: CollectOptions): Promise<CollectedExec> {
  return new Promise((resolve) => {
    const out = new Capped(options.maxOutputBytes);
    const err = new Capped(options.maxOutputBytes);
    let stopped: CollectedExec["stopped"] = null;
    let spawnError: Error | undefined;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    const stop = (why: NonNullable<CollectedExec["stopped"]>) => {
      if (stopped !== null || exit !== undefined) return;
      stopped = why;
      options.kill();
    };
    const onData = (capped: Capped) => (chunk: Buffer) => {
      if (!capped.push(chunk)) stop("output");
    };
    options.stdout.on("data", onData(out));
    options.stderr.on("data", onData(err));
    const timer = setTimeout(() => stop("timeout"), options.timeoutMs);
    const onAbort = () => stop("cancelled");
    options.signal?.addEventListener("abort", onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    if (child.stdin) {
      child.stdin.on("error", () => undefined); // a program that does not read its input
      child.stdin.end(options.stdin ?? "");
    }
    child.on("error", (error) => {
      spawnError = error;
      if (child.pid === undefined) finish(); // never started: no 'exit' follows
    });
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      // What it left behind ends with it; the pipes they held then close.
      options.kill();
      drainTimer = setTimeout(() => {
        for (const stream of [options.stdout, options.stderr]) stream.destroy();
        finish();
      }, DRAIN_MS);
    });
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      clearTimeout(drainTimer);
      options.signal?.removeEventListener("abort", onAbort);
      const notes: string[] = [];
      if (spawnError) notes.push(`[vf: the program could not be started: ${spawnError.message}]`);
      if (stopped === "timeout")
        notes.push(`[vf: stopped at the time limit of ${options.timeoutMs / 1000} s]`);
      if (stopped === "cancelled") notes.push("[vf: stopped: the run was cancelled]");
      if (stopped === "output") {
        const which = out.overflowed ? "stdout" : "stderr";
        notes.push(`[vf: stopped: its ${which} passed ${options.maxOutputBytes} bytes (maxOutputBytes)]`);
      }
      let stderr = err.text();
      if (notes.length > 0)
        stderr += `${stderr === "" || stderr.endsWith("\n") ? "" : "\n"}${notes.join("\n")}\n`;
      const exitCode = spawnError ? 127 : stopped !== null ? null : (exit?.code ?? null);
      resolve({ exitCode, stdout: out.text(), stderr, timedOut: stopped === "timeout", stopped });
    };
    // After 'exit' and every pipe's end; a program that could not be spawned gets 'error' and 'close'.
    child.on("close", finish);
  });
}

/** Bytes of one stream up to a limit. */
class Capped {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  overflowed = false;

  constructor(private readonly limit: number) {}

  /** Keeps what fits; false once the stream has passed the limit. */
  push(chunk: Buffer): boolean {
    const room = this.limit - this.size;
    if (chunk.length > room) {
      if (room > 0) this.chunks.push(chunk.subarray(0, room));
      this.size = this.limit;
      this.overflowed = true;
      return false;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
    return true;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }
}
