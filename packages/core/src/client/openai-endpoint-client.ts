/**
 * What the three OpenAI clients (chat, completions, responses) share: one endpoint (vf's connection
 * pool and retries), the `openai` package's client over it, the check before a run, and closing.
 * Each client adds its API's `chat`.
 */
import OpenAI from "openai";
import { HttpEndpoint } from "./http-endpoint.ts";
import type { ModelClientOptions } from "./model-client-options.ts";
import { preflight } from "./preflight.ts";

/** The base of `OpenAIModelClient`, `OpenAICompletionsClient` and `OpenAIResponsesClient`. */
export abstract class OpenAIEndpointClient {
  readonly baseUrl: string;
  protected readonly endpoint: HttpEndpoint;
  /** An SDK client over the endpoint's pool, with no retries of its own. */
  protected readonly sdk: OpenAI;

  constructor(options: ModelClientOptions) {
    this.endpoint = new HttpEndpoint(options);
    this.baseUrl = this.endpoint.options.baseUrl;
    this.sdk = new OpenAI(this.endpoint.sdkSettings(this.baseUrl));
  }

  /** GET /models once: see `ModelClient.preflight`. */
  preflight(): Promise<void> {
    return preflight((signal) => this.sdk.models.list({ signal }), this.endpoint.options);
  }

  /** The ids of the models the server lists (GET /models), in its order. */
  async listModels(signal?: AbortSignal): Promise<string[]> {
    const ids: string[] = [];
    for await (const model of this.sdk.models.list(signal ? { signal } : {})) ids.push(model.id);
    return ids;
  }

  /** Closes the connection pool. Calls after this fail. */
  close(): Promise<void> {
    return this.endpoint.close();
  }
}
