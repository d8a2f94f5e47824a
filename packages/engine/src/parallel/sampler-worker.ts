/**
 * Entry of the sampler worker thread (server/worker-lane.ts): a LocalLane over its own copy of the
 * model, fed and read through messages. Started by WorkerLane; not imported by anything else.
 */
import { parentPort, workerData } from "node:worker_threads";
import { Transformer } from "../model.ts";
import { LocalLane } from "../server/generation-lane.ts";
import type { FromSamplerWorker, SamplerWorkerData, ToSamplerWorker } from "../server/worker-lane.ts";

const port = parentPort!;
const { config, maxRunning } = workerData as SamplerWorkerData;
const model = new Transformer(config);
const post = (message: FromSamplerWorker): void => port.postMessage(message);
const lane = new LocalLane(model, maxRunning, {
  events: (events) => post({ type: "events", events }),
  failed: (error, ids) => post({ type: "failed", message: error.stack ?? error.message, ids }),
});

port.on("message", (message: ToSamplerWorker) => {
  switch (message.type) {
    case "weights":
      model.params.set(message.params); // only ever sent while the lane is idle
      return;
    case "add":
      try {
        lane.add(message.sequence);
      } catch (error) {
        // the scheduler checked the prompt: a throw here is a fault of ours
        const e = error as Error;
        post({ type: "failed", message: e.stack ?? e.message, ids: [message.sequence.id] });
      }
      return;
    case "cancel":
      lane.cancel(message.id);
      return;
    case "close":
      lane.close();
      port.close();
      return;
  }
});
post({ type: "ready" });
