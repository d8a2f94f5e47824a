/**
 * `ModelClient` over the OpenAI chat-completions API (client type `openai_chat_completions`), through
 * the official `openai` package: OpenAI, OpenRouter, vLLM, SGLang, llama.cpp, Ollama, vf's engine,
 * the scripted test server. One instance per endpoint holds one SDK client and one keep-alive
 * connection pool; share it across rollouts.
 */
import type OpenAI from "openai";
import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import type { Agent } from "undici";
import { toModelResponse } from "./chat-response.ts";
import type { ChatCallOptions, ChatRequest, ModelClient, ModelResponse } from "./model-client.ts";
import {
  connectionPool,
  type ModelClientOptions,
  type ResolvedClientOptions,
  resolveClientOptions,
} from "./model-client-options.ts";
import { openAISdk } from "./openai-sdk.ts";
import { preflight } from "./preflight.ts";
import { retryingCall } from "./retrying-call.ts";
import { samplingFields } from "./sampling-fields.ts";
import { sdkRequestOptions } from "./sdk-request-options.ts";

/**
 * A model endpoint spoken to over the OpenAI chat-completions API.
 *
 * @example
 * const client = new OpenAIModelClient({ baseUrl: "http://127.0.0.1:8000/v1", apiKey: "EMPTY" });
 * const response = await client.chat({ model: "Qwen/Qwen3-0.6B", messages, sampling: { max_tokens: 256 } });
 * await client.close();
 */
export class OpenAIModelClient implements ModelClient {
  readonly type = "openai_chat_completions";
  readonly baseUrl: string;
  /** The chat-completions URL, as named in error messages. */
  readonly chatUrl: string;
  private readonly options: ResolvedClientOptions;
  private readonly agent: Agent;
  private readonly sdk: OpenAI;

  constructor(options: ModelClientOptions) {
    this.options = resolveClientOptions(options);
    this.baseUrl = this.options.baseUrl;
    this.chatUrl = `${this.baseUrl}/chat/completions`;
    this.agent = connectionPool(this.options);
    this.sdk = openAISdk(this.options, this.agent);
  }

  /** Sends one chat request; retries transient failures, then throws the typed errors of errors.ts. */
  async chat(request: ChatRequest, options: ChatCallOptions = {}): Promise<ModelResponse> {
    const body = requestBody(request);
    const raw = await retryingCall(
      (signal) => this.sdk.chat.completions.create(body, sdkRequestOptions(signal, options.headers)),
      {
        url: this.chatUrl,
        model: request.model,
        apiKeyVar: this.options.apiKeyVar,
        timeoutMs: this.options.timeoutMs,
        signal: options.signal,
      },
      this.options,
    );
    return toModelResponse(raw, this.chatUrl);
  }

  /** GET /models once: see `ModelClient.preflight`. */
  preflight(): Promise<void> {
    return preflight((signal) => this.sdk.models.list({ signal }), this.options);
  }

  /** Closes the connection pool. Calls after this fail. */
  async close(): Promise<void> {
    await this.agent.close();
  }
}

/**
 * The request body: sampling args spread in as given (unknown keys such as top_k, min_p or
 * repetition_penalty go to the server untouched), `extra_body` merged into the top level as the
 * Python SDK does, tools only when there are some.
 */
export function requestBody(request: ChatRequest): ChatCompletionCreateParamsNonStreaming {
  const body: Record<string, unknown> = {
    ...samplingFields(request.sampling),
    model: request.model,
    messages: request.messages,
  };
  if (request.tools && request.tools.length > 0) body.tools = request.tools;
  return body as unknown as ChatCompletionCreateParamsNonStreaming;
}
