/**
 * `vf env serve`: one environment served over verifiers' env-server protocols (v1 and v0) by a
 * broker in this process and a pool of worker processes.
 *
 * The broker binds the client-facing ROUTER, answers `health`, `stats` (v1) and `ping` (v0)
 * itself, even while workers load, and hands each run to the least busy ready worker, never more
 * than `maxConcurrent` at once to one worker; the rest wait in a FIFO queue of at most `maxQueued`
 * runs, past which runs are refused with an error, as are the runs of a client whose replies back
 * up (reply-sender.ts). The pool is elastic like verifiers': one worker
 * at first, one more whenever accepted runs reach 90% of workers × maxConcurrent, up to
 * `maxWorkers`. A worker that dies is restarted and the runs it held are answered with a clear
 * error; a worker that cannot load the environment stops the server with that reason. `drain()`
 * (SIGTERM) refuses new runs, finishes the accepted ones, then stops.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UserError } from "@vf-rl/core/errors";
import type { Dealer } from "zeromq";
import { Router } from "zeromq";
import { pack } from "../wire/encoding.ts";
import { V0_CANCELLED_ERROR } from "../wire/v0-protocol.ts";
import { CANCELLED_ERROR, type StatsReply, unknownMethodError } from "../wire/v1-protocol.ts";
import { pythonStringRepr } from "../wire/wire-error.ts";
import { type ClientRequest, parseClientMessage } from "./client-request.ts";
import { type ReplyKind, ReplySender } from "./reply-sender.ts";
import { SerialSender } from "./serial-sender.ts";
import type { WorkerMessage } from "./worker-main.ts";
import { spawnWorker, stopWorker } from "./worker-process.ts";

/** What to serve and how. */
export interface EnvServerOptions {
  /** Environment id (`reverse-text`, `owner/name@1.0.0`) or package folder. */
  envId: string;
  /** Arguments of its loadEnvironment (`-a`). */
  envArgs?: Record<string, unknown>;
  /** Settings applied after loading (`-x`), e.g. max_turns. */
  extraEnvKwargs?: Record<string, unknown>;
  /** Where to bind; `:0` takes a free port. Default tcp://127.0.0.1:5000. */
  address?: string;
  /** Most worker processes; default 1. */
  maxWorkers?: number;
  /** Start with one worker and add more under load (default), or start them all. */
  elastic?: boolean;
  /** Runs one worker holds at once; default 128 (verifiers' multiplex). */
  maxConcurrent?: number;
  /** Runs waiting for a worker, at most; more are refused. Default 4096. */
  maxQueued?: number;
  /** Replies ZeroMQ queues for one client that is not reading them (its high-water mark). Default 10,000. */
  maxQueuedReplies?: number;
  /** One line of news: a worker ready, restarted, the pool grown. Default: nothing. */
  log?: (line: string) => void;
}

/** A running server. */
export interface EnvServer {
  /** The bound address, with the real port when `:0` was asked. */
  readonly address: string;
  /**
   * Resolves when the workers started up front have loaded the environment (the first one of an
   * elastic pool, all of a static one); rejects when the environment cannot load.
   */
  readonly ready: Promise<void>;
  /** The workers now: index, process id, whether loaded, runs held. */
  workers(): StatsReply["workers"];
  /** What the server holds now: the reply of the `stats` method. */
  stats(): StatsReply;
  /**
   * Refuses new runs, finishes the accepted ones, stops the workers, waits up to 30 s for clients
   * to read the replies held for them, then closes.
   */
  drain(): Promise<void>;
  /** Stops now: runs still pending are answered with an error. */
  close(): Promise<void>;
}

const DEFAULTS = {
  address: "tcp://127.0.0.1:5000",
  maxWorkers: 1,
  elastic: true,
  maxConcurrent: 128,
  maxQueued: 4096,
  maxQueuedReplies: 10_000,
};
/** How long a drain waits for clients to read the replies held for them, and then for ZeroMQ to send its queue. */
const DRAIN_GRACE_MS = 30_000;
const DRAIN_LINGER_MS = 2_000;
/** Messages ZeroMQ queues from one client before the broker reads them (it reads without pause). */
const RECEIVE_QUEUE = 10_000;
const text = new TextDecoder();

interface Worker {
  index: number;
  child: ChildProcess;
  dealer: Dealer;
  sender: SerialSender;
  ready: boolean;
  /** Runs and tasks requests it holds (its load). */
  work: number;
  /** Every request id forwarded to it and not yet answered. */
  requests: Set<string>;
  startedAt: number;
}

interface Pending {
  peer: Uint8Array;
  id: Uint8Array;
  /** The frames to forward to a worker, as the client sent them minus its identity. */
  frames: Uint8Array[];
  protocol: "v1" | "v0";
  /** A run or a tasks request: counts against capacity (a forwarded cancel does not). */
  isWork: boolean;
  worker?: Worker;
}

/** The environment cannot be served (it does not load, or its workers die before they are ready). */
export class EnvLoadError extends UserError {}

/** Starts the server: binds at once (health answers from then on) and starts the first worker. */
export async function startEnvServer(options: EnvServerOptions): Promise<EnvServer> {
  const settings = { ...DEFAULTS, ...options } satisfies EnvServerOptions;
  const log = options.log ?? (() => {});
  const front = new Router({
    mandatory: true,
    sendTimeout: 0,
    sendHighWaterMark: settings.maxQueuedReplies,
    receiveHighWaterMark: RECEIVE_QUEUE,
    linger: 0,
  });
  await front.bind(settings.address);
  const address = front.lastEndpoint ?? settings.address;
  const replies = new ReplySender(front, settings.maxQueuedReplies, log);
  const ipcDir = mkdtempSync(join(tmpdir(), "vf-env-"));
  const producer = `vf-rl/env-server ${packageVersion()}`;

  const workers: Array<Worker | undefined> = [];
  const pending = new Map<string, Pending>();
  const queue: string[] = [];
  let queueHead = 0;
  let acceptedWork = 0;
  let runsAccepted = 0;
  let runsRefused = 0;
  let state: "running" | "draining" | "closed" = "running";
  let fatal: string | undefined;
  let earlyExits = 0;
  let everReady = false;
  let resolveReady!: () => void;
  let rejectReady!: (error: Error) => void;
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  ready.catch(() => {});
  let drained: (() => void) | undefined;
  const initial = settings.elastic ? 1 : settings.maxWorkers;

  const replyError = (
    p: Pick<Pending, "peer" | "id" | "protocol">,
    type: string,
    message: string,
    kind: ReplyKind = "answer",
  ) => {
    const error = p.protocol === "v1" ? `${type}: ${message}` : `${type}(${pythonStringRepr(message)})`;
    replies.send([p.peer, p.id, pack({ success: false, error })], kind);
  };

  const startWorker = (index: number) => {
    const { child, dealer } = spawnWorker(
      {
        index,
        address: `ipc://${join(ipcDir, String(index))}`,
        envId: settings.envId,
        envArgs: settings.envArgs ?? {},
        extraEnvKwargs: settings.extraEnvKwargs ?? {},
        producer,
      },
      (message) => onWorkerMessage(worker, message),
    );
    const worker: Worker = {
      index,
      child,
      dealer,
      sender: new SerialSender(dealer, (error) =>
        log(`worker ${index}: a request was not forwarded (${String(error)})`),
      ),
      ready: false,
      work: 0,
      requests: new Set(),
      startedAt: Date.now(),
    };
    workers[index] = worker;
    child.once("exit", (code, signal) => onWorkerExit(worker, code, signal));
    void (async () => {
      try {
        for await (const [id, data] of dealer) if (id && data) onWorkerReply(worker, id, data);
      } catch (error) {
        if (!dealer.closed) log(`worker ${index}: socket failed (${String(error)})`);
      }
    })();
  };

  const onWorkerMessage = (worker: Worker, message: WorkerMessage) => {
    if (message.type === "load-error") {
      stopForGood(`environment "${settings.envId}" cannot be loaded: ${message.message}`);
      return;
    }
    worker.ready = true;
    everReady = true;
    earlyExits = 0;
    log(`worker ${worker.index} ready (pid ${worker.child.pid})`);
    if (workers.filter((w) => w?.ready).length >= initial) resolveReady();
    dispatch();
  };

  const onWorkerReply = (worker: Worker, id: Uint8Array, data: Uint8Array) => {
    const key = text.decode(id);
    const p = pending.get(key);
    if (!p || p.worker !== worker) return;
    pending.delete(key);
    worker.requests.delete(key);
    if (p.isWork) {
      worker.work -= 1;
      acceptedWork -= 1;
    }
    replies.send([p.peer, id, data], p.isWork ? "result" : "answer");
    dispatch();
    checkDrained();
  };

  const onWorkerExit = (worker: Worker, code: number | null, signal: NodeJS.Signals | null) => {
    worker.dealer.close();
    if (workers[worker.index] === worker) workers[worker.index] = undefined;
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    for (const key of worker.requests) {
      const p = pending.get(key);
      if (!p) continue;
      pending.delete(key);
      if (p.isWork) acceptedWork -= 1;
      replyError(
        p,
        "WorkerCrashedError",
        `env server worker ${worker.index} (pid ${worker.child.pid}) ${how} while it ran this request; ${state === "running" && !fatal ? "the server restarted it: send the request again" : "the server is stopping"}`,
        p.isWork ? "result" : "answer",
      );
    }
    worker.requests.clear();
    checkDrained();
    if (state !== "running" || fatal) return;
    if (!worker.ready) {
      earlyExits += 1;
      if (earlyExits >= 3) {
        stopForGood(
          `worker ${worker.index} ${how} before it was ready, ${earlyExits} times in a row: see its output above`,
        );
        return;
      }
    }
    log(`worker ${worker.index} (pid ${worker.child.pid}) ${how}; restarting it`);
    const delay = worker.ready ? 0 : 500 * earlyExits;
    setTimeout(() => {
      if (state === "running" && !fatal && workers[worker.index] === undefined) startWorker(worker.index);
    }, delay);
  };

  /** The environment cannot be served: answer everything with the reason, refuse from now on. */
  const stopForGood = (reason: string) => {
    if (fatal) return;
    fatal = reason;
    if (everReady) log(reason);
    for (const [key, p] of pending) {
      if (p.worker) continue;
      pending.delete(key);
      if (p.isWork) acceptedWork -= 1;
      replyError(p, "EnvLoadError", reason, "result");
    }
    queue.length = 0;
    queueHead = 0;
    rejectReady(new EnvLoadError(reason));
  };

  const dispatch = () => {
    while (queueHead < queue.length) {
      let best: Worker | undefined;
      for (const w of workers) {
        if (w?.ready && w.work < settings.maxConcurrent && (!best || w.work < best.work)) best = w;
      }
      if (!best) break;
      const key = queue[queueHead++]!;
      const p = pending.get(key);
      if (!p) continue; // cancelled while it waited
      forward(best, key, p);
    }
    if (queueHead > 1024 && queueHead * 2 > queue.length) {
      queue.splice(0, queueHead);
      queueHead = 0;
    }
  };

  const forward = (worker: Worker, key: string, p: Pending) => {
    p.worker = worker;
    worker.requests.add(key);
    if (p.isWork) worker.work += 1;
    void worker.sender.send(p.frames);
  };

  const accept = (p: Pending) => {
    const key = text.decode(p.id);
    const refuse = (type: string, message: string) => {
      runsRefused += 1;
      replyError(p, type, message);
    };
    if (fatal) return refuse("EnvLoadError", fatal);
    if (state !== "running") {
      return refuse(
        "ServerDrainingError",
        "this env server is shutting down and takes no new runs: send them to another server",
      );
    }
    if (pending.has(key))
      return refuse(
        "DuplicateRequestError",
        `request id ${key} is already in flight: use a new id per request`,
      );
    if (queue.length - queueHead >= settings.maxQueued) {
      return refuse(
        "ServerBusyError",
        `${settings.maxQueued} runs are already waiting for a worker: send fewer at once, or start the server with more --workers`,
      );
    }
    // A client that does not read its replies gets no more work: what the server holds for it
    // stays bounded by the runs it had accepted (see reply-sender.ts).
    const held = replies.heldFor(p.peer);
    if (held > 0) {
      return refuse(
        "ClientBacklogError",
        `${held} replies to this client are waiting for it to read them: read its replies before sending more runs`,
      );
    }
    pending.set(key, p);
    acceptedWork += 1;
    runsAccepted += 1;
    queue.push(key);
    dispatch();
    const live = workers.filter((w) => w !== undefined).length;
    if (
      settings.elastic &&
      live < settings.maxWorkers &&
      acceptedWork >= 0.9 * live * settings.maxConcurrent
    ) {
      const index = workers.indexOf(undefined);
      const next = index === -1 ? workers.length : index;
      log(`${acceptedWork} runs in flight: adding worker ${next} (${live + 1}/${settings.maxWorkers})`);
      startWorker(next);
    }
  };

  const cancel = (target: string, protocol: "v1" | "v0"): "queued" | "forwarded" | "unknown" => {
    const p = pending.get(target);
    if (!p?.isWork) return "unknown";
    if (!p.worker) {
      pending.delete(target);
      acceptedWork -= 1;
      const error = protocol === "v1" ? CANCELLED_ERROR : V0_CANCELLED_ERROR;
      replies.send([p.peer, p.id, pack({ success: false, error })], "result");
      checkDrained();
      return "queued";
    }
    return "forwarded";
  };

  const onClientMessage = (request: ClientRequest) => {
    switch (request.type) {
      case "probe": {
        const reply = request.probe === "stats" ? stats() : { success: true, error: null };
        return replies.send([request.peer, request.id, pack(reply)], "probe");
      }
      case "work":
        return accept({
          peer: request.peer,
          id: request.id,
          protocol: request.protocol,
          frames: request.frames,
          isWork: true,
        });
      case "cancel": {
        const { peer, id, protocol, target, frames } = request;
        if (target === undefined) {
          return replyError(
            { peer, id, protocol },
            "ValidationError",
            "invalid CancelRequest: request_id must be a string",
          );
        }
        const outcome = cancel(target, protocol);
        if (protocol === "v0") {
          // v0 cancels get no reply; the cancelled run answers for itself.
          if (outcome === "forwarded") void pending.get(target)!.worker!.sender.send(frames);
          return;
        }
        if (outcome === "forwarded") {
          const key = text.decode(id);
          const p: Pending = { peer, id, protocol, frames, isWork: false };
          pending.set(key, p);
          return forward(pending.get(target)!.worker!, key, p);
        }
        const reply = { success: true, error: null, cancelled: outcome === "queued" };
        return replies.send([peer, id, pack(reply)], "answer");
      }
      case "unknown-method": {
        const reply = { success: false, error: unknownMethodError(request.method) };
        return replies.send([request.peer, request.id, pack(reply)], "answer");
      }
      case "malformed":
        return log(
          `ignored a message of ${request.frameCount} frames: v1 sends [request_id, method, payload], v0 [request_id, payload]`,
        );
    }
  };

  const stats = (): StatsReply => ({
    success: true,
    error: null,
    state: state === "running" ? "running" : "draining",
    workers: liveWorkers(),
    accepted: acceptedWork,
    queued: queue.length - queueHead,
    runs_accepted: runsAccepted,
    runs_refused: runsRefused,
    held_replies: replies.held,
    backlogged_clients: replies.backloggedClients,
    dropped_replies: replies.dropped,
    limits: {
      max_concurrent: settings.maxConcurrent,
      max_queued: settings.maxQueued,
      max_queued_replies: settings.maxQueuedReplies,
    },
  });

  const liveWorkers = () =>
    workers
      .filter((w): w is Worker => w !== undefined)
      .map((w) => ({ index: w.index, pid: w.child.pid ?? null, ready: w.ready, active: w.work }));

  const checkDrained = () => {
    if (state === "draining" && acceptedWork === 0) drained?.();
  };

  /** Stops the workers and the socket; `graceful` (a drain) first lets slow clients read what is held for them. */
  const shutdown = async (graceful: boolean) => {
    await Promise.all(workers.filter((w): w is Worker => w !== undefined).map((w) => stopWorker(w.child)));
    if (graceful && !(await replies.emptied(DRAIN_GRACE_MS))) {
      log(
        `${replies.held} replies were not read by their clients within ${DRAIN_GRACE_MS / 1000} s: dropped`,
      );
    }
    state = "closed";
    await replies.flushed();
    replies.close();
    // What ZeroMQ still queues for clients goes out while they read, for a little while.
    if (graceful && !front.closed) front.linger = DRAIN_LINGER_MS;
    front.close();
    rmSync(ipcDir, { recursive: true, force: true });
  };

  const receiving = (async () => {
    try {
      for await (const frames of front) onClientMessage(parseClientMessage(frames));
    } catch (error) {
      if (!front.closed) log(`the server socket failed: ${String(error)}`);
    }
  })();

  for (let i = 0; i < initial; i++) startWorker(i);

  return {
    address,
    ready,
    workers: liveWorkers,
    stats,
    drain: async () => {
      if (state !== "running") return;
      state = "draining";
      if (acceptedWork > 0) await new Promise<void>((resolve) => (drained = resolve));
      await shutdown(true);
      await receiving;
    },
    close: async () => {
      if (state === "closed") return;
      state = "closed";
      for (const [key, p] of pending) {
        pending.delete(key);
        if (p.isWork)
          replyError(
            p,
            "ServerClosedError",
            "the env server was stopped before this request finished",
            "result",
          );
      }
      acceptedWork = 0;
      await shutdown(false);
      await receiving;
    },
  };
}

/** This package's version, read from its package.json (beside src/ and dist/ alike). */
function packageVersion(): string {
  try {
    return (
      JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
    ).version;
  } catch {
    return "unknown";
  }
}
