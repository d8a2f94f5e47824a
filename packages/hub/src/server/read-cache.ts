/**
 * A small in-process cache for the hot read paths (environment info, npm packuments, API key lookups).
 * Writes through this process clear what they touch at once; `ttlMs` bounds staleness when several
 * Hub processes share one PostgreSQL server (each only hears its own writes).
 */

/** Options of `ReadCache`. */
export interface ReadCacheOptions {
  /** How long an entry lives; default 5 s. */
  ttlMs: number;
  /** Entries kept before the oldest are dropped; default 5,000. */
  maxEntries: number;
}

/** Key/value cache with expiry and prefix invalidation. */
export class ReadCache {
  readonly #options: ReadCacheOptions;
  readonly #entries = new Map<string, { value: unknown; expires: number }>();

  constructor(options: Partial<ReadCacheOptions> = {}) {
    this.#options = { ttlMs: 5000, maxEntries: 5000, ...options } satisfies ReadCacheOptions;
  }

  /** The cached value of `key`, else `load()`'s (cached unless `ttlMs` is 0). */
  async get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.#entries.get(key);
    if (hit && hit.expires > Date.now()) return hit.value as T;
    const value = await load();
    if (this.#options.ttlMs > 0) {
      if (this.#entries.size >= this.#options.maxEntries) {
        this.#entries.delete(this.#entries.keys().next().value!);
      }
      this.#entries.set(key, { value, expires: Date.now() + this.#options.ttlMs });
    }
    return value;
  }

  /** Drops every entry whose key starts with `prefix`. */
  invalidate(prefix: string): void {
    for (const key of this.#entries.keys()) if (key.startsWith(prefix)) this.#entries.delete(key);
  }
}
