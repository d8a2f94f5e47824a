/** The per-request options vf gives either SDK: the request's abort signal and its own headers. */

/** A subset of both SDKs' `RequestOptions`. */
export interface SdkRequestOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/** Per-request options: the request's own abort signal and headers (e.g. from the rollout's state). */
export function sdkRequestOptions(
  signal: AbortSignal | undefined,
  headers: Record<string, string> | undefined,
): SdkRequestOptions | undefined {
  if (signal === undefined && headers === undefined) return undefined;
  return { ...(signal ? { signal } : {}), ...(headers ? { headers } : {}) };
}
