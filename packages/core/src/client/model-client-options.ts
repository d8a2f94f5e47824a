/**
 * What every HTTP model client takes (where the endpoint is, its key, how hard to retry) and the
 * connection pool they share the settings of. One client instance per endpoint holds one pool.
 */
import { Agent } from "undici";

/** How to reach one endpoint and how hard to try. */
export interface ModelClientOptions {
  /**
   * Base URL of the API: for the OpenAI APIs usually ending in /v1 (http://127.0.0.1:8000/v1);
   * for Anthropic's, the host (https://api.anthropic.com), a trailing /v1 being dropped.
   */
  baseUrl: string;
  /** The key sent to the server; "EMPTY" for local servers that ignore it. */
  apiKey: string;
  /** Name of the variable the key came from, so a rejected key can be traced (messages only). */
  apiKeyVar?: string;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** Retries after the first attempt on 429, 5xx and dropped connections; default 3. */
  maxRetries?: number;
  /** First backoff delay in ms, doubled each retry with jitter; default 500. */
  retryDelayMs?: number;
  /** Cap on one backoff delay in ms; default 8000. */
  maxRetryDelayMs?: number;
  /** Whole-request timeout in ms; default 3,600,000 (one hour, for long generations). */
  timeoutMs?: number;
  /** TCP connect timeout in ms; default 5000. */
  connectTimeoutMs?: number;
}

/** The options with every default filled in. */
export type ResolvedClientOptions = Required<Omit<ModelClientOptions, "apiKeyVar">> & { apiKeyVar?: string };

const DEFAULTS = {
  headers: {} as Record<string, string>,
  maxRetries: 3,
  retryDelayMs: 500,
  maxRetryDelayMs: 8000,
  timeoutMs: 3_600_000,
  connectTimeoutMs: 5000,
};

/** Fills in the defaults; `??` rather than a spread, so a key present but undefined gets its default. */
export function resolveClientOptions(options: ModelClientOptions): ResolvedClientOptions {
  const resolved: ResolvedClientOptions = {
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    apiKey: options.apiKey,
    headers: options.headers ?? DEFAULTS.headers,
    maxRetries: options.maxRetries ?? DEFAULTS.maxRetries,
    retryDelayMs: options.retryDelayMs ?? DEFAULTS.retryDelayMs,
    maxRetryDelayMs: options.maxRetryDelayMs ?? DEFAULTS.maxRetryDelayMs,
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs,
  };
  if (options.apiKeyVar !== undefined) resolved.apiKeyVar = options.apiKeyVar;
  return resolved;
}

/**
 * The keep-alive pool of one endpoint. undici's own timeouts (300 s for headers and body) would
 * cut long generations short; the SDK's timeout covers the whole request instead.
 */
export function connectionPool(options: ResolvedClientOptions): Agent {
  return new Agent({ connect: { timeout: options.connectTimeoutMs }, headersTimeout: 0, bodyTimeout: 0 });
}
