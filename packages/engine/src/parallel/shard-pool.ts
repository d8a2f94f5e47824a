/**
 * Worker threads for training: each runs one shard of a batch on the shared parameters and writes
 * its gradient into its own shared buffer; the main thread adds those buffers in worker order, so a
 * run is bit-for-bit repeatable for a given thread count. Each runs shard-worker.ts (start-worker.ts
 * starts it from the built JavaScript or from source).
 */
import type { Worker } from "node:worker_threads";
import type { ModelConfig } from "../config.ts";
import { EngineError } from "../errors.ts";
import type { BatchItem, Loss } from "../trainer/protocol.ts";
import type { ShardResult } from "../trainer/run-shard.ts";
import { startWorker } from "./start-worker.ts";

/** What a worker is started with. */
export interface ShardWorkerData {
  config: ModelConfig;
  params: SharedArrayBuffer; // (P) float32, owned by the main thread
  grads: SharedArrayBuffer; // (P) float32, this worker's
}

/** One shard to run. */
export interface ShardTask {
  id: number;
  items: BatchItem[];
  loss: Loss;
  withGrad: boolean;
  scale: number;
}

/** A worker's answer to a task: its result, or the error it threw. */
export type WorkerReply =
  | { id: number; result: ShardResult }
  | { id: number; error: { name: string; message: string; stack: string } };

interface Pending {
  resolve: (result: ShardResult) => void;
  reject: (error: Error) => void;
}

/** A fixed set of worker threads sharing one model's parameters. */
export class ShardPool {
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  private broken: Error | null = null;

  private constructor(
    private readonly workers: Worker[],
    /** Each worker's gradient (P), float32 on shared memory. */
    readonly grads: Float32Array[],
  ) {
    for (const worker of workers) {
      worker.on("message", (reply: WorkerReply) => this.settle(reply));
      worker.on("error", (error) =>
        this.fail(
          new EngineError(`a trainer worker thread died (${error.message}): create a new trainer`, {
            cause: error,
          }),
        ),
      );
      worker.on("exit", (code) =>
        this.fail(new EngineError(`a trainer worker thread exited with code ${code}: create a new trainer`)),
      );
    }
  }

  /** Starts `count` workers on the float32 parameters `params` (shared memory); resolves when all are ready. */
  static async start(config: ModelConfig, params: Float32Array, count: number): Promise<ShardPool> {
    if (!(params.buffer instanceof SharedArrayBuffer)) {
      throw new EngineError(
        "worker threads need the parameters on shared memory: allocate them with allocFloats(..., true)",
      );
    }
    const grads: Float32Array[] = [];
    const workers = await Promise.all(
      Array.from({ length: count }, () => {
        const g = new Float32Array(new SharedArrayBuffer(params.length * 4));
        grads.push(g);
        const data: ShardWorkerData = {
          config,
          params: params.buffer as SharedArrayBuffer,
          grads: g.buffer as SharedArrayBuffer,
        };
        const worker = startWorker("shard-worker", data);
        return new Promise<Worker>((resolve, reject) => {
          const fail = (error: Error): void => {
            reject(
              new EngineError(
                `a trainer worker thread failed to start (${error.message}): run with threads: 1`,
                { cause: error },
              ),
            );
          };
          worker.once("error", fail);
          worker.once("message", () => {
            worker.off("error", fail);
            worker.unref(); // an idle pool does not keep the process alive
            resolve(worker);
          });
        });
      }),
    );
    return new ShardPool(workers, grads);
  }

  /** Number of workers. */
  get size(): number {
    return this.workers.length;
  }

  /** Runs shard i on worker i (at most `size` shards); resolves with their results in order. */
  async run(
    shards: readonly BatchItem[][],
    loss: Loss,
    withGrad: boolean,
    scale: number,
  ): Promise<ShardResult[]> {
    if (this.broken !== null) throw this.broken;
    // a running task keeps the process alive; an idle pool does not
    for (const worker of this.workers) worker.ref();
    try {
      return await this.dispatch(shards, loss, withGrad, scale);
    } finally {
      for (const worker of this.workers) worker.unref();
    }
  }

  private dispatch(
    shards: readonly BatchItem[][],
    loss: Loss,
    withGrad: boolean,
    scale: number,
  ): Promise<ShardResult[]> {
    return Promise.all(
      shards.map(
        (items, i) =>
          new Promise<ShardResult>((resolve, reject) => {
            const id = this.nextId++;
            this.pending.set(id, { resolve, reject });
            const task: ShardTask = { id, items, loss, withGrad, scale };
            this.workers[i]!.postMessage(task);
          }),
      ),
    );
  }

  /** Stops every worker. */
  async close(): Promise<void> {
    this.fail(new EngineError("the trainer is closed: create a new one"));
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  private settle(reply: WorkerReply): void {
    const pending = this.pending.get(reply.id);
    if (pending === undefined) return;
    this.pending.delete(reply.id);
    if ("result" in reply) pending.resolve(reply.result);
    else {
      const error = new EngineError(`a trainer worker failed: ${reply.error.name}: ${reply.error.message}`);
      error.stack = reply.error.stack;
      pending.reject(error);
    }
  }

  /** Marks the pool unusable and rejects every call in flight. */
  private fail(error: Error): void {
    this.broken ??= error;
    for (const { reject } of this.pending.values()) reject(error);
    this.pending.clear();
  }
}
