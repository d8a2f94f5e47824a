/**
 * A signal that follows a long-lived one only while some work runs. core's `generate` adds an abort
 * listener to the signal it is given and never removes it, so handing it the run's own signal on
 * every round of sampling would pile up listeners for the length of the run.
 */

/** Runs `work` with a signal that aborts when `parent` does, and lets go of `parent` afterwards. */
export async function withScopedSignal<T>(
  parent: AbortSignal | undefined,
  work: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  if (parent === undefined) return work(undefined);
  const child = new AbortController();
  const abort = (): void => child.abort(parent.reason);
  if (parent.aborted) abort();
  else parent.addEventListener("abort", abort, { once: true });
  try {
    return await work(child.signal);
  } finally {
    parent.removeEventListener("abort", abort);
  }
}
