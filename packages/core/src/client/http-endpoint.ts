/**
 * What each HTTP model client holds for its endpoint: the options with their defaults, one
 * keep-alive connection pool, and the call that runs one SDK request in the retry loop
 * (retrying-call.ts), giving each attempt its own abort signal and the call's own headers. The
 * clients differ only in their SDK, the request they make and the shapes they translate.
 */
import type { Agent } from "undici";
import type { ChatCallOptions } from "./model-client.ts";
import {
  connectionPool,
  type ModelClientOptions,
  type ResolvedClientOptions,
  resolveClientOptions,
} from "./model-client-options.ts";
import { pooledFetch } from "./pooled-fetch.ts";
import { retryingCall } from "./retrying-call.ts";

/** The per-request options vf gives either SDK: a subset of both SDKs' `RequestOptions`. */
export interface SdkRequestOptions {
  signal?: AbortSignal;
  /**
   * Name-value pairs, which both SDKs take as they are; a plain object they turn into pairs, and
   * clear each name first, on every request.
   */
  headers?: Array<[string, string]>;
}

/** One model endpoint, as its client reaches it. */
export class HttpEndpoint {
  readonly options: ResolvedClientOptions;
  /** The endpoint's keep-alive pool, for the SDK's fetch. */
  readonly agent: Agent;

  constructor(options: ModelClientOptions) {
    this.options = resolveClientOptions(options);
    this.agent = connectionPool(this.options);
  }

  /**
   * Runs `send`, one SDK request to `url` for `model`, until it succeeds or fails for good (see
   * `retryingCall`); each attempt is sent with its own signal, following `call.signal`, and with
   * `call.headers` (e.g. from the rollout's state).
   */
  call<T>(
    url: string,
    model: string,
    call: ChatCallOptions,
    send: (requestOptions: SdkRequestOptions | undefined) => Promise<T>,
  ): Promise<T> {
    return retryingCall(
      (signal) => send(requestOptions(signal, call.headers)),
      {
        url,
        model,
        apiKeyVar: this.options.apiKeyVar,
        timeoutMs: this.options.timeoutMs,
        signal: call.signal,
      },
      this.options,
    );
  }

  /**
   * What either SDK's client is made with, at `baseURL`: the endpoint's key, headers and timeout, a
   * fetch over its pool, and no retries of the SDK's own (`call` runs vf's). Every setting is given,
   * so an SDK reads none of its environment variables (OPENAI_API_KEY, ANTHROPIC_BASE_URL, ...).
   */
  sdkSettings(baseURL: string) {
    return {
      baseURL,
      apiKey: this.options.apiKey,
      defaultHeaders: this.options.headers,
      maxRetries: 0,
      timeout: this.options.timeoutMs,
      fetch: pooledFetch(this.agent),
    };
  }

  /** Closes the connection pool. Calls after this fail. */
  close(): Promise<void> {
    return this.agent.close();
  }
}

function requestOptions(
  signal: AbortSignal | undefined,
  headers: Record<string, string> | undefined,
): SdkRequestOptions | undefined {
  if (headers === undefined) return signal ? { signal } : undefined;
  const pairs = Object.entries(headers);
  return signal ? { signal, headers: pairs } : { headers: pairs };
}
