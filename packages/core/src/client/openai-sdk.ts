/**
 * The `openai` package's client as the three OpenAI clients (chat, completions, responses) set it
 * up: vf's connection pool and retries (the SDK's own are off), the endpoint's headers, and
 * per-request options carrying the request's signal and headers.
 */
import OpenAI from "openai";
import type { Agent } from "undici";
import type { ResolvedClientOptions } from "./model-client-options.ts";
import { pooledFetch } from "./pooled-fetch.ts";

/** An SDK client over `agent`, with no retries of its own. */
export function openAISdk(options: ResolvedClientOptions, agent: Agent): OpenAI {
  return new OpenAI({
    baseURL: options.baseUrl,
    apiKey: options.apiKey,
    defaultHeaders: options.headers,
    maxRetries: 0,
    timeout: options.timeoutMs,
    fetch: pooledFetch(agent),
  });
}
