/**
 * The two hand-offs between the sampler side and the trainer side of a run:
 * `PolicyVersions`, the weights the trainer has published (the sampler waits for the version a
 * batch must be sampled with), and `BatchQueue`, the batches the sampler has collected (the
 * trainer waits for the next one). `stop` wakes the other side with "no more" (false or
 * undefined), or, given an error, makes it throw that error.
 */

/** How a hand-off ended, if it did. */
class Ending {
  stopped = false;
  error: unknown = undefined;

  stop(error?: unknown): void {
    if (this.stopped) return;
    this.stopped = true;
    this.error = error;
  }

  /** Throws the error it ended with; returns whether it ended. */
  check(): boolean {
    if (this.stopped && this.error !== undefined) throw this.error;
    return this.stopped;
  }
}

/** Published policy versions. */
export class PolicyVersions {
  private latest: number;
  private waiters: { version: number; resolve: (ok: boolean) => void }[] = [];
  private readonly ending = new Ending();

  constructor(initial: number) {
    this.latest = initial;
  }

  /** The newest version published. */
  get newest(): number {
    return this.latest;
  }

  /** Announces that the weights after `version` steps are saved. */
  publish(version: number): void {
    this.latest = Math.max(this.latest, version);
    this.waiters = this.waiters.filter((w) => {
      if (w.version > this.latest) return true;
      w.resolve(true);
      return false;
    });
  }

  /** Resolves true once `version` is published, false when stopped first; throws the stopping error. */
  async until(version: number): Promise<boolean> {
    if (version <= this.latest) return true;
    if (this.ending.check()) return false;
    const ok = await new Promise<boolean>((resolve) => this.waiters.push({ version, resolve }));
    if (!ok) this.ending.check();
    return ok;
  }

  /** Wakes every waiter with false (or `error` thrown, when given). */
  stop(error?: unknown): void {
    this.ending.stop(error);
    for (const w of this.waiters) w.resolve(false);
    this.waiters = [];
  }
}

/** Batches handed from the sampler to the trainer, in order. */
export class BatchQueue<T> {
  private readonly items: T[] = [];
  private waiter: ((item: T | undefined) => void) | null = null;
  private readonly ending = new Ending();

  /** Queued batches not yet taken. */
  get length(): number {
    return this.items.length;
  }

  push(item: T): void {
    if (this.waiter) {
      const wake = this.waiter;
      this.waiter = null;
      wake(item);
    } else this.items.push(item);
  }

  /** The next batch; undefined when stopped; throws the stopping error. */
  async take(): Promise<T | undefined> {
    if (this.ending.check()) return undefined; // stopped means stopped, even with batches queued
    const item = this.items.shift();
    if (item !== undefined) return item;
    const next = await new Promise<T | undefined>((resolve) => {
      this.waiter = resolve;
    });
    if (next === undefined) this.ending.check();
    return next;
  }

  /** No more batches will come: wakes the waiter with undefined (or `error` thrown). */
  stop(error?: unknown): void {
    this.ending.stop(error);
    const wake = this.waiter;
    this.waiter = null;
    wake?.(undefined);
  }
}
