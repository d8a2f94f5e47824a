/**
 * The retry loop every model client runs its HTTP call in: retries transient failures (429, 5xx,
 * dropped connections) with backoff, gives each attempt its own abort signal linked to the caller's,
 * and throws the typed errors of errors.ts. Retries are ours, not the SDKs': their retry sleep ignores
 * the abort signal, their first delay is fixed, and they retry refused connections, which should
 * fail fast.
 *
 * The wait between attempts is exponential backoff with jitter, in a sleep that an abort ends at
 * once. Each attempt gets a signal of its own because the OpenAI SDK adds an abort listener to the
 * signal it is given and a rollout reuses its signal for every model turn, so past ten turns Node
 * warned of a listener leak (MaxListenersExceededWarning) on every long rollout. A child signal takes
 * the SDK's listener and is dropped with it; the link to the parent is removed when the request
 * settles.
 */
import { CancelledError } from "../errors.ts";
import { type CallContext, classifyFailure } from "./model-call-failure.ts";
import type { ResolvedClientOptions } from "./model-client-options.ts";

/**
 * Runs `attempt` until it succeeds, a failure is not worth retrying, or retries run out. `attempt`
 * gets the signal of its own request (undefined when the caller gave none).
 */
export async function retryingCall<T>(
  attempt: (signal: AbortSignal | undefined) => Promise<T>,
  context: CallContext,
  options: Pick<ResolvedClientOptions, "maxRetries" | "retryDelayMs" | "maxRetryDelayMs">,
): Promise<T> {
  const signal = context.signal;
  const backoff = { initialMs: options.retryDelayMs, maxMs: options.maxRetryDelayMs };
  for (let n = 0; ; n++) {
    if (signal?.aborted) throw new CancelledError(`model call to ${context.url} cancelled`);
    const link = requestSignal(signal);
    let failure: ReturnType<typeof classifyFailure>;
    try {
      return await attempt(link.signal);
    } catch (error) {
      failure = classifyFailure(error, context);
    } finally {
      link.release();
    }
    if (!failure.retry || n >= options.maxRetries) throw failure.error;
    await sleep(backoffMs(n, backoff, failure.retryAfterMs), signal);
  }
}

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

export interface RequestSignal {
  /** The request's own signal; undefined when there is no parent to follow. */
  signal: AbortSignal | undefined;
  /** Unlinks the request from the parent. Call when the request settles. */
  release(): void;
}

/** A signal for one request that aborts when `parent` does. */
export function requestSignal(parent: AbortSignal | undefined): RequestSignal {
  if (!parent) return { signal: undefined, release: () => {} };
  const child = new AbortController();
  if (parent.aborted) {
    child.abort(parent.reason);
    return { signal: child.signal, release: () => {} };
  }
  const follow = () => child.abort(parent.reason);
  parent.addEventListener("abort", follow, { once: true });
  return { signal: child.signal, release: () => parent.removeEventListener("abort", follow) };
}
