/**
 * Starts one pool worker: a child process running worker-main (its TypeScript source inside vf's
 * repository, its built JavaScript when installed) with the broker's DEALER connected to the
 * worker's ipc address. The child's output goes to the broker's stderr, keeping stdout for the
 * server's address.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Dealer } from "zeromq";
import type { WorkerConfig, WorkerMessage } from "./worker-main.ts";

const FROM_SOURCE = import.meta.url.endsWith(".ts");

/** A started worker process and the broker's socket to it. */
export interface WorkerProcess {
  child: ChildProcess;
  dealer: Dealer;
}

/** Spawns the worker of `config`; `onMessage` gets its ready / load-error messages. */
export function spawnWorker(
  config: WorkerConfig,
  onMessage: (message: WorkerMessage) => void,
): WorkerProcess {
  const file = fileURLToPath(new URL(FROM_SOURCE ? "./worker-main.ts" : "./worker-main.js", import.meta.url));
  const flags = FROM_SOURCE
    ? [
        "--conditions=vf-source",
        "--import",
        pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href,
      ]
    : [];
  const child = spawn(process.execPath, [...flags, file], {
    stdio: ["ignore", 2, 2, "ipc"],
    env: { ...process.env, VF_ENV_SERVER_WORKER: JSON.stringify(config) },
  });
  child.on("message", (message) => onMessage(message as WorkerMessage));
  // The worker's queue is bounded by the broker (at most its concurrency in flight), so no high-water mark.
  const dealer = new Dealer({ linger: 0, sendHighWaterMark: 0, receiveHighWaterMark: 0 });
  dealer.connect(config.address);
  return { child, dealer };
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
