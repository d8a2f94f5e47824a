/**
 * A lane of the generation scheduler: one BatchSampler and the loop that steps it while any of its
 * sequences runs, yielding to the event loop between steps so that sequences added meanwhile join
 * at the next step. The scheduler has one lane on its own thread (LocalLane) and, with two threads,
 * one on a worker thread (worker-lane.ts, which runs a LocalLane there), so the two cores each step
 * their own sequences without waiting for each other.
 */
import type { Transformer } from "../model.ts";
import { BatchSampler, type TokenEvent } from "../sampling/batch-sampler.ts";
import type { SampledSequence, SamplingParams } from "../trainer/protocol.ts";

/** A sequence to start in a lane; its id is the scheduler's. */
export interface LaneSequence {
  id: number;
  prompt: readonly number[];
  params: SamplingParams;
  stream: number;
  topLogprobs: number;
}

/** A token of a lane's step; the last of a sequence carries the whole sequence. */
export interface LaneEvent extends TokenEvent {
  sequence: SampledSequence | null;
}

/** Where a lane reports: every step's tokens, or a failed step and the sequences it ended. */
export interface LaneListener {
  events(events: LaneEvent[]): void;
  failed(error: Error, ids: number[]): void;
}

/** What the scheduler needs of a lane. */
export interface GenerationLane {
  /** Sequences running or waiting in this lane. */
  readonly active: number;
  /** Whether it takes new sequences (a worker lane once its thread has started, until it stops). */
  readonly ready: boolean;
  /** Starts a sequence (its prompt already checked, `checkPrompt`). */
  add(sequence: LaneSequence): void;
  /** Stops a sequence; no more events come for it. */
  cancel(id: number): void;
  /** Stops the lane; its sequences get no more events. */
  close(): void;
}

/** A lane on this thread. */
export class LocalLane implements GenerationLane {
  private readonly sampler: BatchSampler;
  private readonly ids = new Map<number, number>(); // scheduler id → sampler id
  private readonly schedulerIds = new Map<number, number>(); // sampler id → scheduler id
  private scheduled = false;
  private closed = false;

  constructor(
    model: Transformer,
    maxRunning: number,
    private readonly listener: LaneListener,
  ) {
    this.sampler = new BatchSampler(model, { maxRunning });
  }

  get active(): number {
    return this.sampler.active;
  }

  get ready(): boolean {
    return !this.closed;
  }

  add({ id, prompt, params, stream, topLogprobs }: LaneSequence): void {
    const samplerId = this.sampler.add(prompt, params, { stream, topLogprobs });
    this.ids.set(id, samplerId);
    this.schedulerIds.set(samplerId, id);
    this.kick();
  }

  cancel(id: number): void {
    const samplerId = this.ids.get(id);
    if (samplerId === undefined) return;
    this.sampler.cancel(samplerId);
    this.forget(samplerId);
  }

  close(): void {
    this.closed = true;
    for (const samplerId of [...this.schedulerIds.keys()]) this.sampler.cancel(samplerId);
    this.ids.clear();
    this.schedulerIds.clear();
  }

  private kick(): void {
    if (this.scheduled || this.closed || this.sampler.active === 0) return;
    this.scheduled = true;
    // setImmediate runs after pending I/O: sequences that arrived during a step join the next one
    setImmediate(() => this.loop());
  }

  private loop(): void {
    this.scheduled = false;
    if (this.closed || this.sampler.active === 0) return;
    let events: TokenEvent[];
    try {
      events = this.sampler.step();
    } catch (error) {
      // a fault of ours: end what was running rather than leave its clients waiting forever
      const ids = [...this.ids.keys()];
      for (const samplerId of [...this.schedulerIds.keys()]) this.sampler.cancel(samplerId);
      this.ids.clear();
      this.schedulerIds.clear();
      this.listener.failed(error as Error, ids);
      return;
    }
    const out: LaneEvent[] = [];
    for (const event of events) {
      const id = this.schedulerIds.get(event.id);
      if (id === undefined) continue;
      const sequence = event.finish === null ? null : this.sampler.take(event.id);
      if (sequence !== null) this.forget(event.id);
      out.push({ ...event, id, sequence });
    }
    this.listener.events(out);
    this.kick();
  }

  private forget(samplerId: number): void {
    const id = this.schedulerIds.get(samplerId);
    this.schedulerIds.delete(samplerId);
    if (id !== undefined) this.ids.delete(id);
  }
}
