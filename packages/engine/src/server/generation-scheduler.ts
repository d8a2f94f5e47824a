/**
 * Continuous batching for the server: every request's sequences join a lane (generation-lane.ts),
 * a BatchSampler stepped while any of its sequences runs, yielding to the event loop between steps
 * so that requests that arrive meanwhile join at the next step. Throughput therefore grows with
 * concurrency. With `threads: n` (by default two on a machine of two cores or more), n − 1 more
 * lanes run on worker threads (worker-lane.ts), started when a sequence arrives while another runs:
 * a single stream stays on this thread. A new sequence goes to the least busy lane, or to a lane
 * already running its prompt if that one is at most PROMPT_SLACK sequences busier (so an RL group's
 * samples share one prefill, and a burst of one prompt still spreads over the cores); each lane
 * steps on its own core and none waits for another.
 *
 * Weight updates drain: sequences already started finish on the old weights, sequences that arrive
 * after the update was asked for wait, and once nothing runs the weights are swapped and the waiting
 * sequences start on the new ones. No sequence ever mixes two sets of weights.
 */
import { availableParallelism } from "node:os";
import { EngineError } from "../errors.ts";
import type { Transformer } from "../model.ts";
import { checkPrompt, type TokenEvent } from "../sampling/batch-sampler.ts";
import type { Scored, TokenLogprob } from "../sampling/logits-processor.ts";
import { scorePrompt } from "../sampling/prompt-logprobs.ts";
import type { SampledSequence, SamplingParams } from "../trainer/protocol.ts";
import { type GenerationLane, type LaneEvent, type LaneListener, LocalLane } from "./generation-lane.ts";
import { WorkerLane } from "./worker-lane.ts";

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
  lane: GenerationLane | null; // null while held by a weight update
}

/** Options of a GenerationScheduler. */
export interface GenerationSchedulerOptions {
  /** Most sequences stepped together per lane (default 64); more wait in arrival order. */
  maxBatch?: number;
  /**
   * Threads that sample (default "auto": 2 where the machine has two cores or more, else 1). With
   * n > 1, n − 1 worker threads each step a lane of sequences of their own, started when sequences
   * first run at once; float32 models only (float64 ones sample on this thread).
   */
  threads?: number | "auto";
}

/**
 * How many more sequences than the least busy lane a lane already running a prompt may hold and
 * still take another sample of it: enough for an RL group to share one prefill, few enough that a
 * burst of one prompt spreads evenly over the lanes.
 */
export const PROMPT_SLACK = 8;

/** The threads "auto" stands for: both cores of a two-core machine (more lanes gain little on a small model). */
export function autoThreads(): number {
  return Math.min(2, availableParallelism());
}

/** Runs generation requests over one model, batched together. */
export class GenerationScheduler {
  private readonly local: LocalLane;
  private readonly workers: WorkerLane[] = [];
  private readonly maxBatch: number;
  private readonly threads: number;
  private readonly jobs = new Map<number, Job>();
  private readonly held: Job[] = []; // arrived during a weight update
  private readonly promptLanes = new Map<string, Map<GenerationLane, number>>(); // lanes running a prompt, and how many of its sequences
  private readonly promptKeys = new Map<number, string>(); // job id → its prompt's key
  private nextId = 0;
  private updates: Promise<unknown> = Promise.resolve();
  private draining = false;
  private idleWaiters: Array<() => void> = [];
  private closed = false;
  /** Sequences started so far on this thread's lane and on the worker threads' lanes. */
  readonly started = { main: 0, workers: 0 };
  private readonly listener: LaneListener = {
    events: (events) => this.deliver(events),
    failed: (error, ids) => this.fail(error, ids),
  };

  constructor(
    readonly model: Transformer,
    options: GenerationSchedulerOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 64;
    const threads = options.threads ?? "auto";
    this.threads = model.dtype !== "f32" ? 1 : threads === "auto" ? autoThreads() : threads;
    this.local = new LocalLane(model, this.maxBatch, this.listener);
  }

  /** Sequences running or waiting (including those held by a weight update). */
  get active(): number {
    return this.lanesActive() + this.held.length;
  }

  /** Generates one sequence. Throws at once (SamplingError, SequenceTooLongError) for a bad prompt. */
  generate(request: GenerateRequest): Promise<Generated> {
    if (this.closed) return Promise.reject(new GenerationCancelledError("the server is closing"));
    if (request.signal?.aborted) return Promise.reject(new GenerationCancelledError("cancelled"));
    return new Promise<Generated>((resolve, reject) => {
      const job: Job = { request, top: [], resolve, reject, detach: () => undefined, lane: null };
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

  /**
   * Scores each token of `prompt` given the tokens before it (prompt-logprobs.ts), in one forward
   * pass on this thread, with the weights a sequence started now would sample with: a weight update
   * asked for before this call is waited for.
   */
  async score(prompt: readonly number[], topLogprobs = 0): Promise<Scored[]> {
    await this.updates;
    if (this.closed) throw new GenerationCancelledError("the server is closing");
    return scorePrompt(this.model, prompt, topLogprobs);
  }

  /** Cancels every sequence (their promises reject), stops the worker thread and refuses new work. */
  close(): void {
    this.closed = true;
    const error = new GenerationCancelledError("the server is closing");
    this.local.close();
    for (const worker of this.workers) worker.close();
    for (const job of this.jobs.values()) {
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
    checkPrompt(this.model.config, prompt, params);
    const id = this.nextId++;
    const key = prompt.join(",");
    const lane = this.laneFor(key);
    job.lane = lane;
    this.jobs.set(id, job);
    this.promptKeys.set(id, key);
    const lanes = this.promptLanes.get(key) ?? new Map<GenerationLane, number>();
    lanes.set(lane, (lanes.get(lane) ?? 0) + 1);
    this.promptLanes.set(key, lanes);
    lane.add({ id, prompt, params, stream, topLogprobs: topLogprobs ?? 0 });
    if (lane === this.local) this.started.main += 1;
    else this.started.workers += 1;
    this.listen(job, id);
  }

  /**
   * The least busy lane running this prompt if it is at most PROMPT_SLACK sequences busier than the
   * least busy lane, else the least busy lane (this thread's on a tie). Starts the worker threads
   * when a sequence arrives while another runs.
   */
  private laneFor(key: string): GenerationLane {
    if (this.workers.length === 0 && this.threads > 1 && this.local.active > 0) {
      for (let i = 1; i < this.threads; i++)
        this.workers.push(new WorkerLane(this.model, this.maxBatch, this.listener));
    }
    let least: GenerationLane = this.local;
    for (const worker of this.workers) if (worker.ready && worker.active < least.active) least = worker;
    let holder: GenerationLane | null = null;
    for (const lane of this.promptLanes.get(key)?.keys() ?? []) {
      if (!lane.ready || lane.active > least.active + PROMPT_SLACK) continue;
      if (holder === null || lane.active < holder.active) holder = lane;
    }
    return holder ?? least;
  }

  /** Rejects the job when its signal aborts, wherever it is (held, or in a lane as `id`). */
  private listen(job: Job, id: number): void {
    const signal = job.request.signal;
    if (!signal) return;
    const onAbort = (): void => {
      if (id >= 0) {
        job.lane?.cancel(id);
        this.forget(id);
        if (this.lanesActive() === 0) this.notifyIdle();
      } else {
        const at = this.held.indexOf(job);
        if (at >= 0) this.held.splice(at, 1);
      }
      job.reject(new GenerationCancelledError("cancelled"));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    job.detach = () => signal.removeEventListener("abort", onAbort);
  }

  /** A lane's step: each token to its job, and each finished sequence's promise resolved. */
  private deliver(events: LaneEvent[]): void {
    for (const { sequence, ...event } of events) {
      const job = this.jobs.get(event.id);
      if (!job) continue;
      if (job.request.topLogprobs) job.top.push(event.top);
      try {
        job.request.onToken?.(event);
      } catch (error) {
        job.lane?.cancel(event.id);
        this.forget(event.id);
        job.detach();
        job.reject(error as Error);
        continue;
      }
      if (sequence !== null) {
        this.forget(event.id);
        job.detach();
        job.resolve({ sequence, top: job.top });
      }
    }
    if (this.lanesActive() === 0) this.notifyIdle();
  }

  /** A lane's step failed (a fault of ours): its sequences fail rather than leave clients waiting. */
  private fail(error: Error, ids: number[]): void {
    for (const id of ids) {
      const job = this.jobs.get(id);
      if (!job) continue;
      this.forget(id);
      job.detach();
      job.reject(error);
    }
    if (this.lanesActive() === 0) this.notifyIdle();
  }

  private forget(id: number): void {
    const lane = this.jobs.get(id)?.lane;
    this.jobs.delete(id);
    const key = this.promptKeys.get(id);
    this.promptKeys.delete(id);
    if (key === undefined || lane == null) return;
    const lanes = this.promptLanes.get(key);
    const count = lanes?.get(lane);
    if (lanes === undefined || count === undefined) return;
    if (count > 1) lanes.set(lane, count - 1);
    else lanes.delete(lane);
    if (lanes.size === 0) this.promptLanes.delete(key);
  }

  private lanesActive(): number {
    return this.workers.reduce((sum, worker) => sum + worker.active, this.local.active);
  }

  private idle(): Promise<void> {
    if (this.lanesActive() === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private notifyIdle(): void {
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
