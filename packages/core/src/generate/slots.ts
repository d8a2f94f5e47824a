/** A counting semaphore: at most `size` holders at once, served first come, first served. */
export class Slots {
  private free: number;
  // A queue with a moving head: Array.shift is O(n), and runs queue tens of thousands of waiters.
  private waiting: Array<() => void> = [];
  private head = 0;

  constructor(size: number) {
    if (!(size >= 1)) throw new TypeError(`concurrency must be at least 1, got ${size}`);
    this.free = size;
  }

  /** Runs `fn` while holding a slot. */
  async with<T>(fn: () => Promise<T>): Promise<T> {
    const turn = this.acquire();
    if (turn) await turn;
    try {
      return await fn();
    } finally {
      this.release();
    }
  }

  /**
   * Takes a slot: undefined when one is free, else a promise that resolves when it is this caller's
   * turn. Every acquire is paired with one `release`. For hot paths that would otherwise allocate a
   * closure per call for `with`.
   */
  acquire(): Promise<void> | undefined {
    if (this.free > 0) {
      this.free--;
      return undefined;
    }
    return new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Gives back a slot taken with `acquire`, to the longest waiter if there is one. */
  release(): void {
    if (this.head < this.waiting.length) {
      const next = this.waiting[this.head++]!;
      if (this.head > 1024 && this.head * 2 > this.waiting.length) {
        this.waiting = this.waiting.slice(this.head);
        this.head = 0;
      }
      next();
    } else {
      this.free++;
    }
  }
}
