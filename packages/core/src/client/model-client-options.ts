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
  /** First backoff delay in seconds, doubled each retry with jitter; default 0.5. */
  retryDelaySeconds?: number;
  /** Cap on one backoff delay in seconds; default 8. */
  maxRetryDelaySeconds?: number;
  /** Whole-request timeout in seconds; default 3600 (one hour, for long generations). */
  timeoutSeconds?: number;
  /** TCP connect timeout in seconds; default 5. */
  connectTimeoutSeconds?: number;
}

/** The options with every default filled in, durations in milliseconds as timers take them. */
export interface ResolvedClientOptions {
  baseUrl: string;
  apiKey: string;
  apiKeyVar?: string;
  headers: Record<string, string>;
  maxRetries: number;
  retryDelayMs: number;
  maxRetryDelayMs: number;
  timeoutMs: number;
  connectTimeoutMs: number;
}

const DEFAULTS = {
  headers: {} as Record<string, string>,
  maxRetries: 3,
  retryDelaySeconds: 0.5,
  maxRetryDelaySeconds: 8,
  timeoutSeconds: 3600,
  connectTimeoutSeconds: 5,
};

/** Fills in the defaults; `??` rather than a spread, so a key present but undefined gets its default. */
export function resolveClientOptions(options: ModelClientOptions): ResolvedClientOptions {
  const ms = (seconds: number | undefined, byDefault: number) => (seconds ?? byDefault) * 1000;
  const resolved: ResolvedClientOptions = {
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    apiKey: options.apiKey,
    headers: options.headers ?? DEFAULTS.headers,
    maxRetries: options.maxRetries ?? DEFAULTS.maxRetries,
    retryDelayMs: ms(options.retryDelaySeconds, DEFAULTS.retryDelaySeconds),
    maxRetryDelayMs: ms(options.maxRetryDelaySeconds, DEFAULTS.maxRetryDelaySeconds),
    timeoutMs: ms(options.timeoutSeconds, DEFAULTS.timeoutSeconds),
    connectTimeoutMs: ms(options.connectTimeoutSeconds, DEFAULTS.connectTimeoutSeconds),
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
