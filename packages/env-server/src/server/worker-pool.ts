/**
 * The broker's pool of worker processes and the runs it holds for them (not the client-facing
 * socket: that is front-end.ts, which decides what to accept and formats the replies).
 *
 * Accepted jobs wait in a FIFO queue of at most `maxQueued` and go to the least busy ready worker,
 * never more than `maxConcurrent` counted jobs at once to one worker. The pool is elastic like
 * verifiers': one worker at first, one more whenever accepted jobs reach 90% of workers ×
 * maxConcurrent, up to `maxWorkers`. A worker that dies is restarted and the jobs it held fail with
 * `WorkerCrashedError`; a worker that cannot load the environment, or three in a row that die
 * before they are ready, stop the pool for good (`EnvLoadError`). Each job ends in one `settle`
 * call, unless it is cancelled while queued or handed back by `close()`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UserError } from "@vf-rl/core/errors";
import type { StatsReply } from "../wire/v1-protocol.ts";
import type { WorkerConfig, WorkerMessage } from "./worker-main.ts";
import { type PoolWorker, spawnWorker, stopWorker } from "./worker-process.ts";

/** The environment cannot be served (it does not load, or its workers die before they are ready). */
export class EnvLoadError extends UserError {}

/** What the pool runs: a request forwarded to a worker as the client sent it. */
export interface PoolJob {
  /** The request id, unique among the jobs in flight; the worker's reply carries it. */
  key: string;
  /** The frames to forward, as the client sent them minus its identity. */
  frames: Uint8Array[];
  /** A run or a tasks request, counting against capacity (a forwarded cancel does not). */
  isWork: boolean;
}

/** How a job ended: the worker's reply, or an error the front end words for the job's protocol. */
export type JobOutcome =
  | { type: "reply"; data: Uint8Array }
  | { type: "error"; name: "WorkerCrashedError" | "EnvLoadError"; message: string };

/** Why the pool takes no new job now (the front end words it for the job's protocol). */
export interface Refusal {
  name: "EnvLoadError" | "ServerDrainingError" | "DuplicateRequestError" | "ServerBusyError";
  message: string;
}

/** What `cancel` did: `dequeued` a job that never reached a worker, left a `running` one to it, or knew no such job. */
export type CancelOutcome<J> = { type: "dequeued"; job: J } | { type: "running" } | { type: "unknown" };

export interface WorkerPoolOptions<J extends PoolJob> {
  /** What each worker loads and how its episodes name their producer. */
  environment: Pick<
    WorkerConfig,
    "envId" | "envArgs" | "extraEnvKwargs" | "harness" | "runtime" | "producer" | "keyVars"
  >;
  /** Most worker processes. */
  maxWorkers: number;
  /** Start with one worker and add more under load, or start them all. */
  elastic: boolean;
  /** Counted jobs one worker holds at once. */
  maxConcurrent: number;
  /** Jobs waiting for a worker, at most. */
  maxQueued: number;
  log: (line: string) => void;
  /** Called once per job with how it ended. */
  settle: (job: J, outcome: JobOutcome) => void;
}

interface Held<J> {
  job: J;
  worker?: PoolWorker;
}

const text = new TextDecoder();

export class WorkerPool<J extends PoolJob> {
  /**
   * Resolves when the workers started up front have loaded the environment (the first one of an
   * elastic pool, all of a static one); rejects with EnvLoadError when it cannot load.
   */
  readonly ready: Promise<void>;
  private readonly workerList: Array<PoolWorker | undefined> = [];
  private readonly held = new Map<string, Held<J>>();
  private readonly queue: string[] = [];
  private queueHead = 0;
  private acceptedWork = 0;
  private lifecycle: "running" | "draining" | "closed" = "running";
  private fatalReason: string | undefined;
  private earlyExits = 0;
  private everReady = false;
  private resolveReady!: () => void;
  private rejectReady!: (error: Error) => void;
  private drained: (() => void) | undefined;
  private readonly initial: number;
  private readonly ipcDir = mkdtempSync(join(tmpdir(), "vf-env-"));

  /** Starts the workers up front: one for an elastic pool, `maxWorkers` for a static one. */
  constructor(private readonly options: WorkerPoolOptions<J>) {
    this.ready = new Promise<void>((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    this.ready.catch(() => {});
    this.initial = options.elastic ? 1 : options.maxWorkers;
    for (let i = 0; i < this.initial; i++) this.startWorker(i);
  }

  /** `running`; `draining` after `drain()` (no new jobs, no restarts); `closed` after `close()`. */
  get state(): "running" | "draining" | "closed" {
    return this.lifecycle;
  }

  /** Counted jobs accepted and not yet settled. */
  get accepted(): number {
    return this.acceptedWork;
  }

  /** Of those, the jobs waiting for a worker. */
  get queued(): number {
    return this.queue.length - this.queueHead;
  }

  /** The workers now: index, process id, whether loaded, counted jobs held. */
  workers(): StatsReply["workers"] {
    return this.live().map((w) => ({
      index: w.index,
      pid: w.child.pid ?? null,
      ready: w.ready,
      active: w.work,
    }));
  }

  /** Why a job keyed `key` would be refused now, or undefined when it would be taken. */
  refusal(key: string): Refusal | undefined {
    if (this.fatalReason) return { name: "EnvLoadError", message: this.fatalReason };
    if (this.lifecycle !== "running") {
      return {
        name: "ServerDrainingError",
        message: "this env server is shutting down and takes no new runs: send them to another server",
      };
    }
    if (this.held.has(key)) {
      return {
        name: "DuplicateRequestError",
        message: `request id ${key} is already in flight: use a new id per request`,
      };
    }
    if (this.queued >= this.options.maxQueued) {
      return {
        name: "ServerBusyError",
        message: `${this.options.maxQueued} runs are already waiting for a worker: send fewer at once, or start the server with more --workers`,
      };
    }
    return undefined;
  }

  /** Takes a counted job the `refusal` check let through, and adds a worker when the pool runs hot. */
  submit(job: J): void {
    this.held.set(job.key, { job });
    this.acceptedWork += 1;
    this.queue.push(job.key);
    this.dispatch();
    const { elastic, maxWorkers, maxConcurrent } = this.options;
    const live = this.live().length;
    if (elastic && live < maxWorkers && this.acceptedWork >= 0.9 * live * maxConcurrent) {
      const index = this.workerList.indexOf(undefined);
      const next = index === -1 ? this.workerList.length : index;
      this.options.log(
        `${this.acceptedWork} runs in flight: adding worker ${next} (${live + 1}/${maxWorkers})`,
      );
      this.startWorker(next);
    }
  }

  /** Cancels the counted job `key`: a queued one is taken out and handed back, a running one is left to its worker. */
  cancel(key: string): CancelOutcome<J> {
    const entry = this.held.get(key);
    if (!entry?.job.isWork) return { type: "unknown" };
    if (entry.worker) return { type: "running" };
    this.held.delete(key);
    this.acceptedWork -= 1;
    this.checkDrained();
    return { type: "dequeued", job: entry.job };
  }

  /** Forwards `job` to the worker running job `target` (a v1 cancel of it); its answer is settled like any job's. */
  forwardAlong(target: string, job: J): void {
    const worker = this.held.get(target)?.worker;
    if (worker) this.forward(worker, job.key, { job });
  }

  /** Sends `frames` to the worker running job `target` (a v0 cancel of it), expecting no answer. */
  tellWorkerOf(target: string, frames: Uint8Array[]): void {
    void this.held.get(target)?.worker?.sender.send(frames);
  }

  /** Takes no new jobs and restarts no worker; resolves when every accepted job is settled. */
  drain(): Promise<void> {
    this.lifecycle = "draining";
    if (this.acceptedWork === 0) return Promise.resolve();
    return new Promise<void>((resolve) => (this.drained = resolve));
  }

  /** Stops taking jobs and hands back the counted ones not yet settled, which the pool forgets. */
  close(): J[] {
    this.lifecycle = "closed";
    const abandoned: J[] = [];
    for (const [key, { job }] of this.held) {
      this.held.delete(key);
      if (job.isWork) abandoned.push(job);
    }
    this.acceptedWork = 0;
    return abandoned;
  }

  /** Stops every worker (SIGTERM, then SIGKILL after 10 s) and removes their ipc folder. */
  async stop(): Promise<void> {
    await Promise.all(this.live().map((w) => stopWorker(w.child)));
    rmSync(this.ipcDir, { recursive: true, force: true });
  }

  private live(): PoolWorker[] {
    return this.workerList.filter((w): w is PoolWorker => w !== undefined);
  }

  private startWorker(index: number): void {
    const address = `ipc://${join(this.ipcDir, String(index))}`;
    const worker = spawnWorker(
      { index, address, ...this.options.environment },
      {
        message: (message) => this.onWorkerMessage(worker, message),
        reply: (id, data) => this.onWorkerReply(worker, id, data),
        exit: (code, signal) => this.onWorkerExit(worker, code, signal),
        log: this.options.log,
      },
    );
    this.workerList[index] = worker;
  }

  private onWorkerMessage(worker: PoolWorker, message: WorkerMessage): void {
    if (message.type === "load-error") {
      this.stopForGood(
        `environment "${this.options.environment.envId}" cannot be loaded: ${message.message}`,
      );
      return;
    }
    worker.ready = true;
    this.everReady = true;
    this.earlyExits = 0;
    this.options.log(`worker ${worker.index} ready (pid ${worker.child.pid})`);
    if (this.live().filter((w) => w.ready).length >= this.initial) this.resolveReady();
    this.dispatch();
  }

  private onWorkerReply(worker: PoolWorker, id: Uint8Array, data: Uint8Array): void {
    const key = text.decode(id);
    const entry = this.held.get(key);
    if (!entry || entry.worker !== worker) return;
    this.held.delete(key);
    worker.requests.delete(key);
    if (entry.job.isWork) {
      worker.work -= 1;
      this.acceptedWork -= 1;
    }
    this.options.settle(entry.job, { type: "reply", data });
    this.dispatch();
    this.checkDrained();
  }

  private onWorkerExit(worker: PoolWorker, code: number | null, signal: NodeJS.Signals | null): void {
    worker.dealer.close();
    if (this.workerList[worker.index] === worker) this.workerList[worker.index] = undefined;
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    const restarting = this.lifecycle === "running" && !this.fatalReason;
    for (const key of worker.requests) {
      const entry = this.held.get(key);
      if (!entry) continue;
      this.held.delete(key);
      if (entry.job.isWork) this.acceptedWork -= 1;
      this.options.settle(entry.job, {
        type: "error",
        name: "WorkerCrashedError",
        message: `env server worker ${worker.index} (pid ${worker.child.pid}) ${how} while it ran this request; ${restarting ? "the server restarted it: send the request again" : "the server is stopping"}`,
      });
    }
    worker.requests.clear();
    this.checkDrained();
    if (!restarting) return;
    if (!worker.ready) {
      this.earlyExits += 1;
      if (this.earlyExits >= 3) {
        this.stopForGood(
          `worker ${worker.index} ${how} before it was ready, ${this.earlyExits} times in a row: see its output above`,
        );
        return;
      }
    }
    this.options.log(`worker ${worker.index} (pid ${worker.child.pid}) ${how}; restarting it`);
    const delay = worker.ready ? 0 : 500 * this.earlyExits;
    setTimeout(() => {
      const stillWanted = this.lifecycle === "running" && !this.fatalReason;
      if (stillWanted && this.workerList[worker.index] === undefined) this.startWorker(worker.index);
    }, delay);
  }

  /** The environment cannot be served: fail every queued job with the reason, refuse from now on. */
  private stopForGood(reason: string): void {
    if (this.fatalReason) return;
    this.fatalReason = reason;
    if (this.everReady) this.options.log(reason);
    for (const [key, entry] of this.held) {
      if (entry.worker) continue;
      this.held.delete(key);
      if (entry.job.isWork) this.acceptedWork -= 1;
      this.options.settle(entry.job, { type: "error", name: "EnvLoadError", message: reason });
    }
    this.queue.length = 0;
    this.queueHead = 0;
    this.rejectReady(new EnvLoadError(reason));
  }

  /** Hands queued jobs, oldest first, to the least busy ready worker with room. */
  private dispatch(): void {
    while (this.queueHead < this.queue.length) {
      let best: PoolWorker | undefined;
      for (const w of this.workerList) {
        if (w?.ready && w.work < this.options.maxConcurrent && (!best || w.work < best.work)) best = w;
      }
      if (!best) break;
      const key = this.queue[this.queueHead++]!;
      const entry = this.held.get(key);
      if (!entry) continue; // cancelled while it waited
      this.forward(best, key, entry);
    }
    if (this.queueHead > 1024 && this.queueHead * 2 > this.queue.length) {
      this.queue.splice(0, this.queueHead);
      this.queueHead = 0;
    }
  }

  private forward(worker: PoolWorker, key: string, entry: Held<J>): void {
    entry.worker = worker;
    this.held.set(key, entry);
    worker.requests.add(key);
    if (entry.job.isWork) worker.work += 1;
    void worker.sender.send(entry.job.frames);
  }

  private checkDrained(): void {
    if (this.lifecycle === "draining" && this.acceptedWork === 0) this.drained?.();
  }
}
