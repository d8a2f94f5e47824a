/**
 * The retry loop every model client runs its HTTP call in: retries transient failures (429, 5xx,
 * dropped connections) with backoff, gives each attempt its own abort signal linked to the caller's,
 * and throws the typed errors of errors.ts. Retries are ours, not the SDKs': their retry sleep ignores
 * the abort signal, their first delay is fixed, and they retry refused connections, which should
 * fail fast.
 */
import { CancelledError } from "../errors.ts";
import { type CallContext, classifyFailure } from "./model-call-failure.ts";
import type { ResolvedClientOptions } from "./model-client-options.ts";
import { requestSignal } from "./request-signal.ts";
import { backoffMs, sleep } from "./retry-backoff.ts";

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
