/**
 * What the three OpenAI clients (chat, completions, responses) share: one endpoint (vf's connection
 * pool and retries), the `openai` package's client over it, the check before a run, a raw JSON POST
 * for server fields the typed APIs lack, and closing. Each client adds its API's `chat`.
 */
import OpenAI from "openai";
import { HttpEndpoint } from "./http-endpoint.ts";
import type { ChatCallOptions } from "./model-client.ts";
import type { ModelClientOptions } from "./model-client-options.ts";
import { preflight } from "./preflight.ts";
import { httpErrorAnswer } from "./sdk-errors.ts";

/** What a server answered a raw POST (`OpenAIEndpointClient.postJson`) with, discriminated on `type`. */
export type PostAnswer =
  /** A 2xx answer: its body, parsed JSON (the text when the server sent no JSON). */
  | { type: "answer"; body: unknown }
  /** An error answer that is not retried (4xx but 429): its status and the server's own message. */
  | { type: "refusal"; status: number; message: string };

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

  /**
   * POSTs `body`, as given, as JSON to `path` under the base URL: for the fields of vLLM (and of
   * vf serve) that the typed APIs do not carry, such as `return_token_ids` and `prompt_logprobs`.
   * The request goes as every call of this client does: with its key, headers, timeout and pool; a
   * busy server (429, 5xx) or a dropped connection is retried, and when retries run out, or nothing
   * listens there, the typed error of errors.ts is thrown (`ModelHttpError`,
   * `EndpointUnreachableError`). Any other error answer is returned, not retried, for the caller to
   * word; so is a 2xx answer's body, unchecked.
   *
   * @example
   * const answer = await client.postJson("/completions", { model, prompt: [1, 2, 3], max_tokens: 1, prompt_logprobs: 0 });
   * if (answer.type === "refusal") throw new UserError(`the server refused (${answer.status}: ${answer.message})`);
   */
  postJson(path: string, body: Record<string, unknown>, options: ChatCallOptions = {}): Promise<PostAnswer> {
    const model = typeof body.model === "string" ? body.model : "";
    return this.endpoint.call(`${this.baseUrl}${path}`, model, options, async (requestOptions) => {
      try {
        return { type: "answer", body: await this.sdk.post<unknown>(path, { ...requestOptions, body }) };
      } catch (error) {
        const answer = httpErrorAnswer(error);
        if (answer === null || answer.status === 429 || answer.status >= 500) throw error;
        return { type: "refusal", status: answer.status, message: answer.serverMessage };
      }
    });
  }

  /** Closes the connection pool. Calls after this fail. */
  close(): Promise<void> {
    return this.endpoint.close();
  }
}
