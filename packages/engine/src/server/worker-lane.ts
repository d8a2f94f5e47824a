/**
 * A lane of the generation scheduler on a worker thread (parallel/sampler-worker.ts runs a
 * LocalLane over its own copy of the model): sequences go to it as messages and their tokens come
 * back a step at a time. It steps on the second core without ever waiting for the main thread's
 * lane, or making it wait. The worker gets the model's weights whenever the lane starts from idle,
 * as the main lane reads them then.
 */
import type { Worker } from "node:worker_threads";
import type { ModelConfig } from "../config.ts";
import { EngineError } from "../errors.ts";
import type { Transformer } from "../model.ts";
import { startWorker } from "../parallel/start-worker.ts";
import type { GenerationLane, LaneEvent, LaneListener, LaneSequence } from "./generation-lane.ts";

/** What the sampler worker is started with. */
export interface SamplerWorkerData {
  config: ModelConfig;
  maxRunning: number;
}

/** Messages to the sampler worker. */
export type ToSamplerWorker =
  | { type: "weights"; params: Float32Array }
  | { type: "add"; sequence: LaneSequence }
  | { type: "cancel"; id: number }
  | { type: "close" };

/** Messages from the sampler worker. */
export type FromSamplerWorker =
  | { type: "ready" }
  | { type: "events"; events: LaneEvent[] }
  | { type: "failed"; message: string; ids: number[] };

/** A lane on a worker thread; `ready` once the worker has started. */
export class WorkerLane implements GenerationLane {
  private readonly worker: Worker;
  private readonly running = new Set<number>();
  private started = false;
  private closed = false;

  constructor(
    private readonly model: Transformer,
    maxRunning: number,
    private readonly listener: LaneListener,
  ) {
    const data: SamplerWorkerData = { config: model.config, maxRunning };
    this.worker = startWorker("sampler-worker", data);
    this.worker.unref(); // an idle lane does not keep the process alive
    this.worker.on("message", (message: FromSamplerWorker) => this.receive(message));
    this.worker.on("error", (error) => this.fail(error));
    this.worker.on("exit", (code) => {
      if (!this.closed) this.fail(new EngineError(`the sampler worker thread exited with code ${code}`));
    });
  }

  /** Whether the worker can take sequences. */
  get ready(): boolean {
    return this.started && !this.closed;
  }

  get active(): number {
    return this.running.size;
  }

  add(sequence: LaneSequence): void {
    if (this.running.size === 0) {
      // from idle, as the main lane: the model's weights as they are now
      const params = Float32Array.from(this.model.params);
      this.worker.postMessage({ type: "weights", params } satisfies ToSamplerWorker, [params.buffer]);
      this.worker.ref(); // sequences under way keep the process alive
    }
    this.running.add(sequence.id);
    this.post({ type: "add", sequence });
  }

  cancel(id: number): void {
    if (!this.running.delete(id)) return;
    this.post({ type: "cancel", id });
    this.settle();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.running.clear();
    this.post({ type: "close" });
    void this.worker.terminate();
  }

  private receive(message: FromSamplerWorker): void {
    if (this.closed) return;
    switch (message.type) {
      case "ready":
        this.started = true;
        return;
      case "events": {
        // tokens of sequences cancelled since the worker stepped them are dropped
        const events = message.events.filter((event) => this.running.has(event.id));
        for (const event of events) if (event.finish !== null) this.running.delete(event.id);
        this.settle();
        if (events.length > 0) this.listener.events(events);
        return;
      }
      case "failed": {
        const ids = message.ids.filter((id) => this.running.delete(id));
        this.settle();
        this.listener.failed(new EngineError(`a sampler worker thread failed: ${message.message}`), ids);
        return;
      }
    }
  }

  /** The worker thread died: what ran on it fails, and the lane takes no more sequences. */
  private fail(error: Error): void {
    if (this.closed) return;
    const ids = [...this.running];
    this.closed = true;
    this.running.clear();
    this.listener.failed(
      new EngineError(`the sampler worker thread died: ${error.message}`, { cause: error }),
      ids,
    );
  }

  private settle(): void {
    if (this.running.size === 0) this.worker.unref();
  }

  private post(message: ToSamplerWorker): void {
    this.worker.postMessage(message);
  }
}
