/**
 * One abort signal per HTTP request, following the rollout's. The OpenAI SDK adds an abort
 * listener to the signal it is given and a rollout reuses its signal for every model turn, so past
 * ten turns Node warned of a listener leak (MaxListenersExceededWarning) on every long rollout. A
 * child signal takes the SDK's listener and is dropped with it; the link to the parent is removed
 * when the request settles.
 */

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
