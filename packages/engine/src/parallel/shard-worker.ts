/**
 * Entry of a worker thread of the trainer: it holds a Transformer whose parameters are the main
 * thread's (shared memory) and whose gradients are its own shared buffer, and runs the shards of
 * batches it is sent. Started by ShardPool; not imported by anything else.
 */
import { parentPort, workerData } from "node:worker_threads";
import { Transformer } from "../model.ts";
import { runShard } from "../trainer/run-shard.ts";
import type { ShardTask, ShardWorkerData, WorkerReply } from "./shard-pool.ts";

const port = parentPort!;
const { config, params, grads } = workerData as ShardWorkerData;
const model = new Transformer(config, { params: new Float32Array(params), grads: new Float32Array(grads) });

port.on("message", (task: ShardTask) => {
  let reply: WorkerReply;
  try {
    model.zeroGrad();
    reply = { id: task.id, result: runShard(model, task.items, task.loss, task.withGrad, task.scale) };
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    reply = { id: task.id, error: { name: e.name, message: e.message, stack: e.stack ?? "" } };
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true });
