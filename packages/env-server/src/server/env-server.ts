/**
 * `vf env serve`: one environment (or a taskset run by a harness) served over verifiers' env-server
 * protocols (v1 and v0) by a broker in this process and a pool of worker processes. This file puts
 * the two halves together and runs the server's life (start, drain, close): the client-facing
 * socket, what it accepts and how it answers are front-end.ts; the workers, the queue and dispatch
 * to them are worker-pool.ts.
 */
import { readFileSync } from "node:fs";
import { UserError } from "@vf-rl/core/errors";
import type { StatsReply } from "../wire/v1-protocol.ts";
import { bindFrontSocket, type ClientJob, FrontEnd } from "./front-end.ts";
import type { ServedRuntime } from "./load-served-env.ts";
import { WorkerPool } from "./worker-pool.ts";

/** An address the server cannot bind as written (a port past 65535, no scheme). */
export class EnvServerAddressError extends UserError {
  constructor(
    message: string,
    /** The address as given. */
    readonly address: string,
  ) {
    super(message);
  }
}

/** What to serve and how. */
export interface EnvServerOptions {
  /** Environment id (`reverse-text`, `owner/name@1.0.0`) or package folder. */
  envId: string;
  /** Arguments of its loadEnvironment (`-a`). */
  envArgs?: Record<string, unknown>;
  /** Settings applied after loading (`-x`), e.g. max_turns. */
  extraEnvKwargs?: Record<string, unknown>;
  /**
   * Serve as agents with this harness of @vf-rl/agents (`bash`, `chat`: an environment's own loop,
   * `claude-code`, ...): each run is one agent rollout, its episode the harness's trace. A taskset
   * package is always served as agents (default bash); an environment only when this is given.
   */
  harness?: string;
  /** Where agents run: `local` (the sandbox, default), `container` or `subprocess`. Only for agents. */
  runtime?: ServedRuntime;
  /**
   * Where to bind; `:0` takes a free port. Default tcp://127.0.0.1:5000. The server has no
   * authentication: whoever reaches the address runs rollouts that call the URLs they name.
   */
  address?: string;
  /**
   * The environment variables whose values may be sent as API keys (`--key-var`), to whatever
   * endpoint a run names, when the run names them as its `api_key_var`. A run naming any other
   * variable gets the key "EMPTY" (enough for a local vLLM without a key), and the log and the
   * run's model-call error say how to allow it. Default none.
   */
  keyVars?: readonly string[];
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
  /**
   * Largest request in bytes (all its frames); a larger one is refused with `MessageTooLargeError`,
   * and one with a frame over twice this is cut off by ZeroMQ unread (its client is disconnected).
   * Default 64 MiB.
   */
  maxMessageBytes?: number;
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
  maxMessageBytes: 64 * 2 ** 20,
};

/** Starts the server: binds at once (health answers from then on) and starts the first worker. */
export async function startEnvServer(options: EnvServerOptions): Promise<EnvServer> {
  const settings = { ...DEFAULTS, ...options } satisfies EnvServerOptions;
  checkAddress(settings.address);
  const log = options.log ?? (() => {});
  const version = packageVersion();
  const socket = await bindFrontSocket(settings.address, settings);
  const pool = new WorkerPool<ClientJob>({
    environment: {
      envId: settings.envId,
      envArgs: settings.envArgs ?? {},
      extraEnvKwargs: settings.extraEnvKwargs ?? {},
      harness: settings.harness,
      runtime: settings.runtime,
      producer: `vf-rl/env-server ${version}`,
      keyVars: [...(settings.keyVars ?? [])],
    },
    maxWorkers: settings.maxWorkers,
    elastic: settings.elastic,
    maxConcurrent: settings.maxConcurrent,
    maxQueued: settings.maxQueued,
    log,
    // The pool settles jobs only on worker events, which come after `front` is made.
    settle: (job, outcome) => front.settle(job, outcome),
  });
  const front = new FrontEnd(socket, pool, {
    vfVersion: version,
    maxQueuedReplies: settings.maxQueuedReplies,
    maxMessageBytes: settings.maxMessageBytes,
    limits: {
      max_concurrent: settings.maxConcurrent,
      max_queued: settings.maxQueued,
      max_queued_replies: settings.maxQueuedReplies,
      max_message_bytes: settings.maxMessageBytes,
    },
    log,
  });
  // Set once nothing is left to do but close the socket: a close() until then still stops at once.
  let closed = false;

  /** Stops the workers and the socket; `graceful` (a drain) first lets slow clients read what is held for them. */
  const shutdown = async (graceful: boolean) => {
    await pool.stop();
    if (graceful) await front.letClientsRead();
    closed = true;
    await front.close(graceful);
  };

  return {
    address: socket.lastEndpoint ?? settings.address,
    ready: pool.ready,
    workers: () => pool.workers(),
    stats: () => front.stats(),
    drain: async () => {
      if (pool.state !== "running") return;
      await pool.drain();
      await shutdown(true);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      for (const job of pool.close()) front.abandon(job);
      await shutdown(false);
    },
  };
}

/**
 * Refuses an address ZeroMQ would bind as something else or fail on without saying why: a tcp
 * port past 65535 (ZeroMQ takes it modulo 65536) or none, or no scheme at all.
 */
function checkAddress(address: string): void {
  if (address.startsWith("tcp://")) {
    const port = /:(\d+|\*)$/.exec(address)?.[1];
    if (port === undefined || (port !== "*" && Number(port) > 65535)) {
      throw new EnvServerAddressError(
        `${address} has no port from 0 to 65535: give one, e.g. tcp://127.0.0.1:5000 (port 0: any free one)`,
        address,
      );
    }
  } else if (!/^[a-z]+:\/\/./.test(address)) {
    throw new EnvServerAddressError(
      `${address} is not a ZeroMQ address: write tcp://HOST:PORT (e.g. tcp://127.0.0.1:5000) or ipc://PATH`,
      address,
    );
  }
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
