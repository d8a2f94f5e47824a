/**
 * The container runtime, where Docker or Podman runs (`docker info` answers): each rollout gets a
 * container of an image that has node (default node:20-bookworm-slim) with the task's files in a
 * host folder mounted at /workspace, no network of its own (`--network none`: loopback only, where
 * the interception server's address and the task's allowed hosts lead to the real ones through the
 * runtime's forwarder, as in the local runtime), every capability dropped, limits on memory,
 * processes and CPUs, a read-only root. Each exec runs in the container as a process group of its
 * own, ended at its time limit; `close()` removes the container. When vf dies, even by SIGKILL, the
 * container's main process sees its lifeline to vf close and exits, which stops (and removes) the
 * container; the next runtime removes the folders and containers such a host left.
 *
 * @example
 * const runtime = await containerRuntime({ image: "node:22-bookworm" }).create(task, { interceptionUrl });
 */
import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { chmod } from "node:fs/promises";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { SandboxError, UserError } from "@vf-rl/core";
import type { AgentTask, ExecOptions, ExecResult, Runtime, RuntimeFactory } from "@vf-rl/core/agents";
import { collectExec } from "../exec/collect-exec.ts";
import { insidePath, readWorkFile, writeWorkFile, writeWorkFiles } from "../exec/work-folder.ts";
import { HostForwarder } from "../network/host-forwarder.ts";
import { hostsFile, networkPlan } from "../network/network-plan.ts";
import { createHostFolder, hostMark, removeHostFolder, removeStaleFolders } from "../sandbox/host-folder.ts";
import { CONTAINER, execArgs, killArgs, listArgs, removeArgs, runArgs } from "./container-command.ts";
import { ContainerRuntimeOptions, type ContainerRuntimeOptionsInput } from "./container-options.ts";

const run = promisify(execFile);
const FOLDER_PREFIX = "vf-container";
const INIT_SCRIPT = fileURLToPath(new URL("./container-init.mjs", import.meta.url));

/** A factory of container runtimes; see the file comment. */
export function containerRuntime(options: ContainerRuntimeOptionsInput = {}): RuntimeFactory {
  return new ContainerRuntimeFactory(ContainerRuntimeOptions.parse(options));
}

/**
 * The engine that answers here, first of `docker` and `podman` (or the one given), with why none
 * does: `docker info` fails without a daemon.
 */
export async function findContainerEngine(
  engine?: string,
): Promise<{ engine: string } | { engine: null; reason: string }> {
  const reasons: string[] = [];
  for (const candidate of engine === undefined ? ["docker", "podman"] : [engine]) {
    try {
      await run(candidate, ["info", "--format", "{{.ServerVersion}}"], { timeout: 15_000 });
      return { engine: candidate };
    } catch (error) {
      const { stderr, message } = error as { stderr?: string; message: string };
      reasons.push(`${candidate} info: ${(stderr || message).trim().split("\n").at(-1)}`);
    }
  }
  return { engine: null, reason: reasons.join("; ") };
}

class ContainerRuntimeFactory implements RuntimeFactory {
  readonly id = "container";
  private engine: Promise<string> | undefined;

  constructor(private readonly options: ContainerRuntimeOptions) {}

  async create(
    task: AgentTask,
    options: { interceptionUrl: string; signal?: AbortSignal },
  ): Promise<Runtime> {
    this.engine ??= this.findEngine();
    const engine = await this.engine.catch((error: unknown) => {
      this.engine = undefined;
      throw error;
    });
    options.signal?.throwIfAborted();
    const plan = networkPlan(options.interceptionUrl, task.network);
    if (plan.addresses.length > 0) {
      throw new UserError(
        `the container runtime cannot lead ${plan.addresses.join(", ")} anywhere (a container without capabilities cannot add addresses): allow the host by name, or use the local runtime`,
      );
    }
    const tempDir = this.options.tempDir ?? tmpdir();
    await removeStaleFolders(tempDir, FOLDER_PREFIX);
    const asRoot = process.getuid?.() === 0;
    const user = asRoot ? "1000:1000" : `${process.getuid?.() ?? 1000}:${process.getgid?.() ?? 1000}`;
    const path = createHostFolder({
      prefix: FOLDER_PREFIX,
      subfolders: ["work", "net", "run"],
      tempDir,
      sandboxUid: asRoot ? 1000 : 0,
    });
    const name = `vf-agent-${randomBytes(6).toString("hex")}`;
    let forwarder: HostForwarder | undefined;
    let lifeline: Lifeline | undefined;
    try {
      await writeWorkFiles(join(path, "work"), task.files, { ownerUid: asRoot ? 1000 : undefined });
      writeFileSync(join(path, "hosts"), hostsFile(plan));
      forwarder = await HostForwarder.start(join(path, "net"), plan.targets);
      lifeline = await Lifeline.listen(join(path, "net", "life.sock"));
      await run(
        engine,
        runArgs({
          name,
          image: this.options.image,
          hostMark: hostMark(process.pid) ?? "",
          user,
          work: join(path, "work"),
          net: join(path, "net"),
          run: join(path, "run"),
          initScript: INIT_SCRIPT,
          hostsFile: join(path, "hosts"),
          readOnlyPaths: this.options.readOnlyPaths,
          listeners: plan.listeners.map(({ address, port, target }) => ({
            address,
            port,
            socket: HostForwarder.socketName(target),
          })),
          memoryMb: this.options.memoryMb,
          maxProcesses: this.options.maxProcesses,
          cpus: this.options.cpus,
        }),
        { timeout: this.options.startupSeconds * 1000 },
      );
      // The helper is up (and listening) once it holds its lifeline.
      await lifeline.connected(this.options.startupSeconds * 1000, name);
      return new ContainerRuntime(engine, name, path, task, this.options, forwarder, lifeline);
    } catch (error) {
      await run(engine, removeArgs(name)).catch(() => undefined); // it may never have started
      await Promise.all([forwarder?.close(), lifeline?.close()]);
      await removeHostFolder(path);
      throw error instanceof SandboxError || error instanceof UserError
        ? error
        : new SandboxError(
            `the container runtime could not start ${this.options.image}: ${(error as Error).message.trim().split("\n").at(-1)}: check that the image exists and has node`,
          );
    }
  }

  private async findEngine(): Promise<string> {
    const found = await findContainerEngine(this.options.engine);
    if (found.engine === null) {
      throw new SandboxError(
        `the container runtime found no container engine (${found.reason}): start Docker or Podman, or use the local runtime`,
      );
    }
    await this.removeStaleContainers(found.engine);
    return found.engine;
  }

  /** Removes the containers of hosts (in this pid namespace) that have ended. */
  private async removeStaleContainers(engine: string): Promise<void> {
    const { stdout } = await run(engine, listArgs());
    const namespace = hostMark(process.pid)?.split("-")[0];
    for (const line of stdout.trim().split("\n").filter(Boolean)) {
      const [name, mark] = line.split(" ");
      const [markNamespace, pid] = (mark ?? "").split("-");
      if (!name || markNamespace !== namespace || hostMark(Number(pid)) === mark) continue;
      await run(engine, removeArgs(name)).catch(() => undefined); // removed meanwhile
    }
  }
}

class ContainerRuntime implements Runtime {
  readonly workdir = CONTAINER.workdir;
  private readonly running = new Set<Promise<unknown>>();
  private readonly closing = new AbortController();
  private closed = false;
  private execs = 0;

  constructor(
    private readonly engine: string,
    private readonly name: string,
    private readonly path: string,
    private readonly task: AgentTask,
    private readonly options: ContainerRuntimeOptions,
    private readonly forwarder: HostForwarder,
    private readonly lifeline: Lifeline,
  ) {}

  async exec(argv: readonly string[], options: ExecOptions = {}): Promise<ExecResult> {
    if (this.closed)
      throw new SandboxError("the container runtime is closed: create another to run more programs");
    if (argv.length === 0) throw new SandboxError("exec needs a program: pass [program, ...args]");
    const id = String(++this.execs);
    const cwd = options.cwd === undefined ? CONTAINER.workdir : insidePath(CONTAINER.workdir, options.cwd);
    const env = { HOME: CONTAINER.home, TMPDIR: "/tmp", LANG: "C.UTF-8", ...options.env };
    const child = spawn(
      this.engine,
      execArgs(this.name, id, argv, { env, cwd: posix.normalize(cwd), stdin: options.stdin !== undefined }),
      { stdio: [options.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"] },
    );
    // Killing the engine's client would not end the program: its process group is ended inside.
    const kill = () => {
      const killer = spawn(this.engine, killArgs(this.name, id), { stdio: "ignore" });
      killer.on("error", () => undefined);
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
    return readWorkFile(join(this.path, "work"), path);
  }

  writeFile(path: string, content: string): Promise<void> {
    const asRoot = process.getuid?.() === 0;
    return writeWorkFile(join(this.path, "work"), path, content, { ownerUid: asRoot ? 1000 : undefined });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.closing.abort();
    await run(this.engine, removeArgs(this.name)).catch(() => undefined); // gone already
    await Promise.all([...this.running]);
    await Promise.all([this.forwarder.close(), this.lifeline.close()]);
    await removeHostFolder(this.path);
  }
}

/** The host's end of a container's lifeline: a Unix socket its helper connects to and holds. */
class Lifeline {
  private socket: Socket | undefined;
  private readonly waiters: Array<() => void> = [];

  private constructor(private readonly server: Server) {
    server.on("connection", (socket) => {
      this.socket = socket;
      socket.on("error", () => undefined);
      for (const waiter of this.waiters.splice(0)) waiter();
    });
  }

  static async listen(path: string): Promise<Lifeline> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(path, resolve);
    });
    await chmod(path, 0o666); // the container's user may be another

    return new Lifeline(server);
  }

  /** Resolves once the helper has connected; SandboxError after `ms`. */
  connected(ms: number, name: string): Promise<void> {
    if (this.socket) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new SandboxError(
              `the container ${name} did not start its helper within ${ms / 1000} s: check that its image has node on PATH, or raise startupSeconds`,
            ),
          ),
        ms,
      );
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  async close(): Promise<void> {
    this.socket?.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
