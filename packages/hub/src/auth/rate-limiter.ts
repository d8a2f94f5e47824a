/**
 * Counts failures per key (a user name, a client address) in a sliding window and says when a key
 * must wait. In memory: one Hub process is the unit; behind a load balancer each process limits its
 * share, which still bounds guessing.
 */

/** Options of `RateLimiter`. */
export interface RateLimiterOptions {
  /** Failures allowed per window; default 5. */
  maxFailures: number;
  /** Window length in ms; default 15 minutes. */
  windowMs: number;
  /** Clock, for tests; default Date.now. */
  now: () => number;
}

const DEFAULTS: RateLimiterOptions = { maxFailures: 5, windowMs: 15 * 60_000, now: Date.now };

/** Failure counting with a lock-out once `maxFailures` is reached inside `windowMs`. */
export class RateLimiter {
  readonly #options: RateLimiterOptions;
  readonly #failures = new Map<string, number[]>();

  constructor(options: Partial<RateLimiterOptions> = {}) {
    this.#options = { ...DEFAULTS, ...options } satisfies RateLimiterOptions;
  }

  /** Seconds `key` must wait before trying again, or 0 when it may try now. */
  retryAfter(key: string): number {
    const recent = this.#recent(key);
    if (recent.length < this.#options.maxFailures) return 0;
    const oldest = recent[recent.length - this.#options.maxFailures]!;
    return Math.max(1, Math.ceil((oldest + this.#options.windowMs - this.#options.now()) / 1000));
  }

  /** Records a failure of `key`. */
  fail(key: string): void {
    const recent = this.#recent(key);
    recent.push(this.#options.now());
    this.#failures.set(key, recent);
    if (this.#failures.size > 100_000) this.#prune();
  }

  /** Forgets `key`'s failures (after a success). */
  reset(key: string): void {
    this.#failures.delete(key);
  }

  #recent(key: string): number[] {
    const since = this.#options.now() - this.#options.windowMs;
    return (this.#failures.get(key) ?? []).filter((t) => t > since);
  }

  #prune(): void {
    for (const key of [...this.#failures.keys()]) {
      if (this.#recent(key).length === 0) this.#failures.delete(key);
    }
  }
}
