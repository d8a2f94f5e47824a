/**
 * The `openai` package's client as the three OpenAI clients (chat, completions, responses) set it
 * up: vf's connection pool and retries (the SDK's own are off), the endpoint's headers, and
 * per-request options carrying the request's signal and headers.
 */
import OpenAI from "openai";
import type { HttpEndpoint } from "./http-endpoint.ts";
import { pooledFetch } from "./pooled-fetch.ts";

/** An SDK client over the endpoint's pool, with no retries of its own. */
export function openAISdk(endpoint: HttpEndpoint): OpenAI {
  const { options, agent } = endpoint;
  return new OpenAI({
    baseURL: options.baseUrl,
    apiKey: options.apiKey,
    defaultHeaders: options.headers,
    maxRetries: 0,
    timeout: options.timeoutMs,
    fetch: pooledFetch(agent),
  });
}
