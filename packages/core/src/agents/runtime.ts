/**
 * Where an agent program runs: a working folder with the task's files, processes started in it,
 * and only the network the task allows (the interception server always). A local sandbox
 * (namespaces, seccomp, a private folder) and a container are runtimes; each rollout gets its own.
 */
import type { AgentTask } from "./agent-task.ts";

/** A finished process. */
export interface ExecResult {
  /** null when it was killed (time limit, cancel). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Whether the time limit ended it. */
  timedOut: boolean;
}

/** Options of `Runtime.exec`. */
export interface ExecOptions {
  /** Variables beside the runtime's own (PATH, HOME in the working folder). */
  env?: Record<string, string>;
  /** Working folder relative to the runtime's; default its root. */
  cwd?: string;
  /** Killed after this long; default the task's time limit. */
  timeoutMs?: number;
  stdin?: string;
  signal?: AbortSignal;
}

/** One rollout's place to run programs; `close` removes everything it started and wrote. */
export interface Runtime {
  /** The working folder as programs inside see it. */
  readonly workdir: string;
  exec(argv: readonly string[], options?: ExecOptions): Promise<ExecResult>;
  /** A file of the working folder (relative path), or null when there is none. */
  readFile(path: string): Promise<string | null>;
  writeFile(path: string, content: string): Promise<void>;
  close(): Promise<void>;
}

/** Makes runtimes, one per rollout. */
export interface RuntimeFactory {
  readonly id: string;
  /** A runtime holding the task's files, reaching `interceptionUrl` and the task's allowed hosts. */
  create(task: AgentTask, options: { interceptionUrl: string; signal?: AbortSignal }): Promise<Runtime>;
}
