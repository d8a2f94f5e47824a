/**
 * `ModelClient` over the OpenAI chat-completions API (client type `openai_chat_completions`), through
 * the official `openai` package: OpenAI, OpenRouter, vLLM, SGLang, llama.cpp, Ollama, vf's engine,
 * the scripted test server. One instance per endpoint holds one SDK client and one keep-alive
 * connection pool; share it across rollouts.
 */
import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import { toModelResponse } from "./chat-response.ts";
import type { ChatCallOptions, ChatRequest, ModelClient, ModelResponse } from "./model-client.ts";
import type { ModelClientOptions } from "./model-client-options.ts";
import { OpenAIEndpointClient } from "./openai-endpoint-client.ts";
import { samplingFields } from "./sampling-fields.ts";

/**
 * A model endpoint spoken to over the OpenAI chat-completions API.
 *
 * @example
 * const client = new OpenAIModelClient({ baseUrl: "http://127.0.0.1:8000/v1", apiKey: "EMPTY" });
 * const response = await client.chat({ model: "Qwen/Qwen3-0.6B", messages, sampling: { max_tokens: 256 } });
 * await client.close();
 */
export class OpenAIModelClient extends OpenAIEndpointClient implements ModelClient {
  readonly type = "openai_chat_completions";
  /** The chat-completions URL, as named in error messages. */
  readonly chatUrl: string;

  constructor(options: ModelClientOptions) {
    super(options);
    this.chatUrl = `${this.baseUrl}/chat/completions`;
  }

  /** Sends one chat request; retries transient failures, then throws the typed errors of errors.ts. */
  async chat(request: ChatRequest, options: ChatCallOptions = {}): Promise<ModelResponse> {
    const body = requestBody(request);
    const raw = await this.endpoint.call(this.chatUrl, request.model, options, (requestOptions) =>
      this.sdk.chat.completions.create(body, requestOptions),
    );
    return toModelResponse(raw, this.chatUrl);
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
