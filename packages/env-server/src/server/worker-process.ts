/**
 * One pool worker as the broker sees it: a child process running worker-main (its TypeScript
 * source inside vf's repository, its built JavaScript when installed), the broker's DEALER
 * connected to the worker's ipc address, and the load the pool tracks on it (worker-pool.ts
 * decides what it runs). The child's output goes to the broker's stderr, keeping stdout for the
 * server's address.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { nodeCommand } from "@vf-rl/core/loading";
import type { Dealer } from "zeromq";
import { zeromq } from "../zeromq-binding.ts";
import { SerialSender } from "./serial-sender.ts";
import type { WorkerConfig, WorkerMessage } from "./worker-main.ts";

const FROM_SOURCE = import.meta.url.endsWith(".ts");

/** A started worker. */
export interface PoolWorker {
  index: number;
  child: ChildProcess;
  dealer: Dealer;
  /** Forwards requests to it one at a time, in order. */
  sender: SerialSender;
  /** It has loaded the environment. */
  ready: boolean;
  /** Runs and tasks requests it holds (its load). */
  work: number;
  /** Every request id forwarded to it and not yet answered. */
  requests: Set<string>;
}

/** What a worker tells the broker, each handled as it comes. */
export interface WorkerHandlers {
  /** Its ready or load-error message. */
  message: (message: WorkerMessage) => void;
  /** Its answer `data` to request `id`. */
  reply: (id: Uint8Array, data: Uint8Array) => void;
  /** Its process ended. */
  exit: (code: number | null, signal: NodeJS.Signals | null) => void;
  /** A line about a request not forwarded or a failed socket. */
  log: (line: string) => void;
}

/** Spawns the worker of `config` and connects to it. */
export function spawnWorker(config: WorkerConfig, handlers: WorkerHandlers): PoolWorker {
  const file = fileURLToPath(new URL(FROM_SOURCE ? "./worker-main.ts" : "./worker-main.js", import.meta.url));
  const { command, args } = nodeCommand(file);
  const child = spawn(command, args, {
    stdio: ["ignore", 2, 2, "ipc"],
    env: { ...process.env, VF_ENV_SERVER_WORKER: JSON.stringify(config) },
  });
  child.on("message", (message) => handlers.message(message as WorkerMessage));
  child.once("exit", handlers.exit);
  // The worker's queue is bounded by the broker (at most its concurrency in flight), so no high-water mark.
  const dealer = new (zeromq().Dealer)({ linger: 0, sendHighWaterMark: 0, receiveHighWaterMark: 0 });
  dealer.connect(config.address);
  const { index } = config;
  void (async () => {
    try {
      for await (const [id, data] of dealer) if (id && data) handlers.reply(id, data);
    } catch (error) {
      if (!dealer.closed) handlers.log(`worker ${index}: socket failed (${String(error)})`);
    }
  })();
  const sender = new SerialSender(dealer, (error) =>
    handlers.log(`worker ${index}: a request was not forwarded (${String(error)})`),
  );
  return { index, child, dealer, sender, ready: false, work: 0, requests: new Set() };
}

/** Stops a worker: SIGTERM (it aborts what runs and tears down), SIGKILL if it has not exited in 10 s. */
export function stopWorker(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
