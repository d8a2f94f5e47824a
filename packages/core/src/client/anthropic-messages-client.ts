/**
 * `ModelClient` over Anthropic's Messages API (client type `anthropic_messages`), through the
 * official `@anthropic-ai/sdk`: the system prompt is sent apart, tool calls and results travel as
 * tool_use/tool_result blocks (anthropic-input.ts), and the answer is read back into vf's message
 * shape (anthropic-output.ts), so a rollout record is the same as over any other API.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { MessageCreateParamsNonStreaming } from "@anthropic-ai/sdk/resources/messages/messages";
import { anthropicPrompt, anthropicTools } from "./anthropic-input.ts";
import { anthropicToModelResponse } from "./anthropic-output.ts";
import { loadAnthropicSdk } from "./anthropic-sdk.ts";
import { HttpEndpoint } from "./http-endpoint.ts";
import type { ChatCallOptions, ChatRequest, ModelClient, ModelResponse } from "./model-client.ts";
import type { ModelClientOptions } from "./model-client-options.ts";
import { preflight } from "./preflight.ts";
import { refuseSeveralChoices, renameTokenLimit, samplingFields } from "./sampling-fields.ts";

/** The `max_tokens` sent when none is given: Anthropic requires one (verifiers uses the same). */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

/**
 * A model endpoint spoken to over Anthropic's Messages API. `baseUrl` is the host
 * (https://api.anthropic.com); a trailing /v1 is dropped, as the SDK adds /v1/messages itself.
 *
 * @example
 * const client = new AnthropicMessagesClient({ baseUrl: "https://api.anthropic.com", apiKey: process.env.ANTHROPIC_API_KEY! });
 * const response = await client.chat({ model: "claude-sonnet-5-5", messages, sampling: { max_tokens: 1024 } });
 */
export class AnthropicMessagesClient implements ModelClient {
  readonly type = "anthropic_messages";
  readonly baseUrl: string;
  /** The messages URL, as named in error messages. */
  readonly messagesUrl: string;
  private readonly endpoint: HttpEndpoint;
  private sdk: Promise<Anthropic> | undefined;

  constructor(options: ModelClientOptions) {
    this.endpoint = new HttpEndpoint(options);
    this.baseUrl = this.endpoint.options.baseUrl.replace(/\/v1$/, "");
    this.messagesUrl = `${this.baseUrl}/v1/messages`;
  }

  /** The SDK's client, made on first use: the SDK is an optional package, loaded only here. */
  private client(): Promise<Anthropic> {
    // Every setting is given, so the SDK reads none of ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL or its
    // profile files: the key is the one the endpoint names.
    this.sdk ??= loadAnthropicSdk().then(
      ({ default: Anthropic }) => new Anthropic(this.endpoint.sdkSettings(this.baseUrl)),
    );
    return this.sdk;
  }

  /** Sends one request; retries transient failures (429, 5xx, 529 overloaded), then throws the typed errors. */
  async chat(request: ChatRequest, options: ChatCallOptions = {}): Promise<ModelResponse> {
    const body = requestBody(request);
    const sdk = await this.client();
    const raw = await this.endpoint.call(this.messagesUrl, request.model, options, (requestOptions) =>
      sdk.messages.create(body, requestOptions),
    );
    return anthropicToModelResponse(raw, this.messagesUrl);
  }

  /** GET /v1/models once: see `ModelClient.preflight`. */
  async preflight(): Promise<void> {
    // Outside preflight's own catch: a missing SDK is its install line, not a passing check.
    const sdk = await this.client();
    return preflight((signal) => sdk.models.list({}, { signal }), {
      baseUrl: this.baseUrl,
      apiKeyVar: this.endpoint.options.apiKeyVar,
    });
  }

  /** Closes the connection pool. Calls after this fail. */
  close(): Promise<void> {
    return this.endpoint.close();
  }
}

/**
 * The body: the system prompt apart, the turns, tools when there are some, and sampling args as given
 * with the chat API's spellings moved to Anthropic's: `max_completion_tokens` to `max_tokens`
 * (default 4096, as Anthropic requires one) and `stop` to `stop_sequences`.
 */
export function requestBody(request: ChatRequest): MessageCreateParamsNonStreaming {
  const fields = samplingFields(request.sampling);
  renameTokenLimit(fields, "max_tokens");
  refuseSeveralChoices(fields, "Messages API");
  if (fields.stop !== undefined && fields.stop !== null) {
    fields.stop_sequences = Array.isArray(fields.stop) ? fields.stop : [fields.stop];
  }
  delete fields.stop;
  const prompt = anthropicPrompt(request.messages);
  const body: Record<string, unknown> = {
    max_tokens: ANTHROPIC_DEFAULT_MAX_TOKENS,
    ...fields,
    model: request.model,
    messages: prompt.messages,
  };
  if (prompt.system !== undefined) body.system = prompt.system;
  if (request.tools && request.tools.length > 0) body.tools = anthropicTools(request.tools);
  return body as unknown as MessageCreateParamsNonStreaming;
}
