/**
 * The subprocess runtime, for debugging a harness: a folder with the task's files, and programs run
 * there as plain child processes of vf, with vf's user, vf's network and vf's PATH (its other
 * variables too, but for HOME, TMPDIR and PWD, which name the runtime's folders). Nothing is
 * isolated (a warning says so once per factory): an agent can read and write the whole machine and
 * reach any host, and what outlives the program that started it (a daemon, a command left running
 * in the background when the agent ended) outlives `close()`; a program ended by a cancel, a limit or
 * `close()` takes everything it started with it (kill-tree.ts). If vf itself is killed, its
 * programs go on (the local sandbox runtime is the one that ends them then). It gives
 * the agent a home of its own in the folder, so it does not read or change the user's settings.
 *
 * @example
 * const runtime = await subprocessRuntime().create(task, { interceptionUrl });
 * await runtime.exec(["ls"]); // the task's files
 */
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { SandboxError } from "@vf-rl/core";
import type { AgentTask, ExecOptions, ExecResult, Runtime, RuntimeFactory } from "@vf-rl/core/agents";
import { z } from "zod";
import { collectExec } from "../exec/collect-exec.ts";
import { insidePath, readWorkFile, writeWorkFile, writeWorkFiles } from "../exec/work-folder.ts";
import { createHostFolder, removeHostFolder, removeStaleFolders } from "../sandbox/host-folder.ts";
import { killTree } from "./kill-tree.ts";

/** Options of `subprocessRuntime`. */
export const SubprocessRuntimeOptions = z
  .object({
    /** Bytes kept of each of an exec's stdout and stderr; past them the program is stopped. Default 16 MiB. */
    maxOutputBytes: z
      .number()
      .int()
      .positive()
      .default(16 * 1024 * 1024),
    /** Where runtime folders are made; default the system's temporary folder. */
    tempDir: z.string().optional(),
    /** Leave out the warning that nothing is isolated. Default false. */
    quiet: z.boolean().default(false),
  })
  .strict();
export type SubprocessRuntimeOptions = z.infer<typeof SubprocessRuntimeOptions>;

/** The start of every subprocess runtime folder's name. */
const FOLDER_PREFIX = "vf-subprocess";

/** A factory of subprocess runtimes; see the file comment. */
export function subprocessRuntime(options: z.input<typeof SubprocessRuntimeOptions> = {}): RuntimeFactory {
  const parsed = SubprocessRuntimeOptions.parse(options);
  let warned = parsed.quiet;
  return {
    id: "subprocess",
    async create(task: AgentTask, { signal }: { interceptionUrl: string; signal?: AbortSignal }) {
      if (!warned) {
        warned = true;
        process.emitWarning(
          "the subprocess runtime isolates nothing: agents run as vf's user with its files and network; use the local runtime (or a container) for anything but debugging",
          "VfWarning",
        );
      }
      signal?.throwIfAborted();
      const tempDir = parsed.tempDir ?? tmpdir();
      await removeStaleFolders(tempDir, FOLDER_PREFIX);
      const path = createHostFolder({
        prefix: FOLDER_PREFIX,
        subfolders: ["work", "home"],
        tempDir,
        sandboxUid: 0,
      });
      try {
        await writeWorkFiles(join(path, "work"), task.files);
      } catch (error) {
        await removeHostFolder(path);
        throw error;
      }
      return new SubprocessRuntime(path, task, parsed);
    },
  };
}

class SubprocessRuntime implements Runtime {
  readonly workdir: string;
  private readonly running = new Set<Promise<unknown>>();
  /** Aborted by close(): every running exec stops as if cancelled. */
  private readonly closing = new AbortController();
  private closed = false;

  constructor(
    private readonly path: string,
    private readonly task: AgentTask,
    private readonly options: SubprocessRuntimeOptions,
  ) {
    this.workdir = join(path, "work");
  }

  async exec(argv: readonly string[], options: ExecOptions = {}): Promise<ExecResult> {
    if (this.closed)
      throw new SandboxError("the subprocess runtime is closed: create another to run more programs");
    const [program, ...args] = argv;
    if (program === undefined) throw new SandboxError("exec needs a program: pass [program, ...args]");
    const home = join(this.path, "home");
    const cwd = options.cwd === undefined ? this.workdir : insidePath(this.workdir, options.cwd);
    const child = spawn(program, args, {
      cwd,
      // PWD names the folder it runs in, not vf's: programs that read it (opencode) work there.
      env: { ...process.env, HOME: home, TMPDIR: home, PWD: cwd, ...options.env },
      stdio: [options.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      // Its own process group, so that a kill reaches what it started.
      detached: true,
    });
    // The program, its group, and what it started in groups of its own (see kill-tree.ts).
    const kill = () => {
      if (child.pid !== undefined) killTree(child.pid);
    };
    const done = collectExec(child, {
      stdout: child.stdout as Readable,
      stderr: child.stderr as Readable,
      stdin: options.stdin,
      timeoutMs: options.timeoutMs ?? this.task.limits.timeSeconds * 1000,
      signal: options.signal ? AbortSignal.any([options.signal, this.closing.signal]) : this.closing.signal,
      maxOutputBytes: this.options.maxOutputBytes,
      kill,
    });
    this.running.add(done);
    try {
      const { exitCode, stdout, stderr, timedOut } = await done;
      return { exitCode, stdout, stderr, timedOut };
    } finally {
      this.running.delete(done);
    }
  }

  readFile(path: string): Promise<string | null> {
    return readWorkFile(this.workdir, path);
  }

  writeFile(path: string, content: string): Promise<void> {
    return writeWorkFile(this.workdir, path, content);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.closing.abort();
    await Promise.all([...this.running]);
    await removeHostFolder(this.path);
  }
}
