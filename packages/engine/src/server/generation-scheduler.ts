/**
 * Continuous batching for the server: every request's sequences join one BatchSampler, and a loop
 * steps it while any sequence runs, yielding to the event loop between steps so that requests that
 * arrive meanwhile join at the next step. Throughput therefore grows with concurrency.
 *
 * Weight updates drain: sequences already started finish on the old weights, sequences that arrive
 * after the update was asked for wait, and once nothing runs the weights are swapped and the waiting
 * sequences start on the new ones. No sequence ever mixes two sets of weights.
 */
import { EngineError } from "../errors.ts";
import type { Transformer } from "../model.ts";
import { BatchSampler, type TokenEvent } from "../sampling/batch-sampler.ts";
import type { TokenLogprob } from "../sampling/logits-processor.ts";
import type { SampledSequence, SamplingParams } from "../trainer/protocol.ts";

/** One sequence to generate. */
export interface GenerateRequest {
  prompt: readonly number[];
  params: SamplingParams;
  /** Stream of the seed (choice j of a request uses j). */
  stream: number;
  /** Alternatives to record beside each token (default 0). */
  topLogprobs?: number;
  /** Called for every token as it is sampled (for streaming). */
  onToken?: (event: TokenEvent) => void;
  /** Stops the sequence; its promise rejects with a GenerationCancelledError. */
  signal?: AbortSignal;
}

/** A finished sequence and the alternatives of each of its tokens (empty lists unless asked). */
export interface Generated {
  sequence: SampledSequence;
  top: TokenLogprob[][];
}

/** A sequence stopped before its end: its client went away, or the server is closing. */
export class GenerationCancelledError extends EngineError {}

interface Job {
  request: GenerateRequest;
  top: TokenLogprob[][];
  resolve: (generated: Generated) => void;
  reject: (error: Error) => void;
  detach: () => void;
}

/** Options of a GenerationScheduler. */
export interface GenerationSchedulerOptions {
  /** Most sequences stepped together (default 64); more wait in arrival order. */
  maxBatch?: number;
}

/** Runs generation requests over one model, batched together. */
export class GenerationScheduler {
  private readonly sampler: BatchSampler;
  private readonly jobs = new Map<number, Job>();
  private readonly held: Job[] = []; // arrived during a weight update
  private updates: Promise<unknown> = Promise.resolve();
  private draining = false;
  private idleWaiters: Array<() => void> = [];
  private scheduled = false;
  private closed = false;

  constructor(
    readonly model: Transformer,
    options: GenerationSchedulerOptions = {},
  ) {
    this.sampler = new BatchSampler(model, { maxRunning: options.maxBatch ?? 64 });
  }

  /** Sequences running or waiting (including those held by a weight update). */
  get active(): number {
    return this.sampler.active + this.held.length;
  }

  /** Generates one sequence. Throws at once (SamplingError, SequenceTooLongError) for a bad prompt. */
  generate(request: GenerateRequest): Promise<Generated> {
    if (this.closed) return Promise.reject(new GenerationCancelledError("the server is closing"));
    if (request.signal?.aborted) return Promise.reject(new GenerationCancelledError("cancelled"));
    return new Promise<Generated>((resolve, reject) => {
      const job: Job = { request, top: [], resolve, reject, detach: () => undefined };
      if (this.draining) {
        this.held.push(job);
        this.listen(job, -1);
      } else {
        this.admit(job); // throws synchronously for a bad prompt: the promise rejects with it
      }
    });
  }

  /**
   * Loads new weights: from the call on, new sequences wait; `load` reads and checks the weights
   * (a failure leaves the old ones in place), sequences already running finish on the old weights,
   * and then the weights are swapped and the waiting sequences start.
   */
  updateWeights(load: () => Promise<Float32Array>): Promise<void> {
    const update = this.updates.then(async () => {
      this.draining = true;
      try {
        const params = await load();
        if (params.length !== this.model.params.length) {
          throw new EngineError(
            `new weights hold ${params.length} floats but the served model has ${this.model.params.length}: load a checkpoint of the same config`,
          );
        }
        await this.idle();
        this.model.params.set(params);
      } finally {
        this.draining = false;
        for (const job of this.held.splice(0)) {
          job.detach();
          if (job.request.signal?.aborted) continue;
          try {
            this.admit(job);
          } catch (error) {
            job.reject(error as Error);
          }
        }
      }
    });
    this.updates = update.catch(() => undefined);
    return update;
  }

  /** Cancels every sequence (their promises reject) and refuses new ones. */
  close(): void {
    this.closed = true;
    const error = new GenerationCancelledError("the server is closing");
    for (const [id, job] of this.jobs) {
      this.sampler.cancel(id);
      job.detach();
      job.reject(error);
    }
    this.jobs.clear();
    for (const job of this.held.splice(0)) {
      job.detach();
      job.reject(error);
    }
    this.notifyIdle();
  }

  private admit(job: Job): void {
    const { prompt, params, stream, topLogprobs } = job.request;
    const id = this.sampler.add(prompt, params, { stream, topLogprobs: topLogprobs ?? 0 });
    this.jobs.set(id, job);
    this.listen(job, id);
    this.kick();
  }

  /** Rejects the job when its signal aborts, wherever it is (held, or in the sampler as `id`). */
  private listen(job: Job, id: number): void {
    const signal = job.request.signal;
    if (!signal) return;
    const onAbort = (): void => {
      if (id >= 0) {
        this.sampler.cancel(id);
        this.jobs.delete(id);
        if (this.sampler.active === 0) this.notifyIdle();
      } else {
        const at = this.held.indexOf(job);
        if (at >= 0) this.held.splice(at, 1);
      }
      job.reject(new GenerationCancelledError("cancelled"));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    job.detach = () => signal.removeEventListener("abort", onAbort);
  }

  private kick(): void {
    if (this.scheduled || this.sampler.active === 0) return;
    this.scheduled = true;
    // setImmediate runs after pending I/O: requests that arrived during a step join the next one
    setImmediate(() => this.loop());
  }

  private loop(): void {
    this.scheduled = false;
    if (this.sampler.active === 0) return;
    let events: TokenEvent[];
    try {
      events = this.sampler.step();
    } catch (error) {
      // a fault of ours: fail what was running rather than leave its clients waiting forever
      for (const [id, job] of this.jobs) {
        this.sampler.cancel(id);
        job.detach();
        job.reject(error as Error);
      }
      this.jobs.clear();
      this.notifyIdle();
      return;
    }
    for (const event of events) {
      const job = this.jobs.get(event.id);
      if (!job) continue;
      if (job.request.topLogprobs) job.top.push(event.top);
      try {
        job.request.onToken?.(event);
      } catch (error) {
        this.sampler.cancel(event.id);
        this.jobs.delete(event.id);
        job.detach();
        job.reject(error as Error);
        continue;
      }
      if (event.finish !== null) {
        this.jobs.delete(event.id);
        job.detach();
        job.resolve({ sequence: this.sampler.take(event.id)!, top: job.top });
      }
    }
    if (this.sampler.active === 0) this.notifyIdle();
    this.kick();
  }

  private idle(): Promise<void> {
    if (this.sampler.active === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private notifyIdle(): void {
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
