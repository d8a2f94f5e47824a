/**
 * What the three OpenAI clients (chat, completions, responses) share: one endpoint (vf's connection
 * pool and retries), the `openai` package's client over it with the SDK's own retries off and the
 * endpoint's headers, the check before a run, and closing. Each client adds its API's `chat`.
 */
import OpenAI from "openai";
import { HttpEndpoint } from "./http-endpoint.ts";
import type { ModelClientOptions } from "./model-client-options.ts";
import { pooledFetch } from "./pooled-fetch.ts";
import { preflight } from "./preflight.ts";

/** The base of `OpenAIModelClient`, `OpenAICompletionsClient` and `OpenAIResponsesClient`. */
export abstract class OpenAIEndpointClient {
  readonly baseUrl: string;
  protected readonly endpoint: HttpEndpoint;
  /** An SDK client over the endpoint's pool, with no retries of its own. */
  protected readonly sdk: OpenAI;

  constructor(options: ModelClientOptions) {
    this.endpoint = new HttpEndpoint(options);
    const resolved = this.endpoint.options;
    this.baseUrl = resolved.baseUrl;
    this.sdk = new OpenAI({
      baseURL: resolved.baseUrl,
      apiKey: resolved.apiKey,
      defaultHeaders: resolved.headers,
      maxRetries: 0,
      timeout: resolved.timeoutMs,
      fetch: pooledFetch(this.endpoint.agent),
    });
  }

  /** GET /models once: see `ModelClient.preflight`. */
  preflight(): Promise<void> {
    return preflight((signal) => this.sdk.models.list({ signal }), this.endpoint.options);
  }

  /** Closes the connection pool. Calls after this fail. */
  close(): Promise<void> {
    return this.endpoint.close();
  }
}
