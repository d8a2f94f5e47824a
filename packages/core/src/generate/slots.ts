/** A counting semaphore: at most `size` holders at once, served first come, first served. */
export class Slots {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(size: number) {
    if (!(size >= 1)) throw new TypeError(`concurrency must be at least 1, got ${size}`);
    this.free = size;
  }

  /** Runs `fn` while holding a slot. */
  async with<T>(fn: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}
