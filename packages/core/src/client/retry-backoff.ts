/**
 * The wait between retries of a model call: exponential backoff with jitter, and a sleep that an
 * abort signal ends at once (the openai package's own retry sleep ignores the signal).
 */
import { CancelledError } from "../errors.ts";

/** Backoff settings: the first delay and the cap, in ms. */
export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
}

/**
 * The delay before retry number `attempt` (0-based): initialMs * 2^attempt, capped at maxMs, then
 * scaled by a random factor in [0.5, 1] so that many clients failing together do not retry together.
 * A server's Retry-After wins when it is longer, up to 60 s.
 */
export function backoffMs(
  attempt: number,
  options: BackoffOptions,
  retryAfterMs: number | null = null,
): number {
  const exponential = Math.min(options.initialMs * 2 ** attempt, options.maxMs);
  const jittered = exponential * (0.5 + Math.random() * 0.5);
  return retryAfterMs === null ? jittered : Math.max(jittered, Math.min(retryAfterMs, 60_000));
}

/** Waits `ms`, or throws `CancelledError` as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(new CancelledError("cancelled while waiting to retry"));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CancelledError("cancelled while waiting to retry"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
