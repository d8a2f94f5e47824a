/**
 * `ModelClient` over the OpenAI text-completions API (client type `openai_completions`): for base
 * models served raw (vLLM, llama.cpp, vf's engine). The conversation is rendered as one text prompt
 * (text-prompt.ts) and the model's text comes back as the assistant message. This API has no tools:
 * a request that offers tools is refused with a user error naming the client types that have them.
 */
import type { CompletionCreateParamsNonStreaming } from "openai/resources/completions";
import { UserError } from "../errors.ts";
import { completionToModelResponse } from "./completions-response.ts";
import type { ChatCallOptions, ChatRequest, ModelClient, ModelResponse } from "./model-client.ts";
import type { ModelClientOptions } from "./model-client-options.ts";
import { OpenAIEndpointClient } from "./openai-endpoint-client.ts";
import { refuseSeveralChoices, renameTokenLimit, samplingFields } from "./sampling-fields.ts";
import { plainTextPrompt, type TextPromptRenderer } from "./text-prompt.ts";

/** Options of `OpenAICompletionsClient`: the endpoint's, plus how prompts become text. */
export interface OpenAICompletionsClientOptions extends ModelClientOptions {
  /** Default `plainTextPrompt` (message texts joined by a blank line, as verifiers does). */
  renderPrompt?: TextPromptRenderer;
}

/**
 * A model endpoint spoken to over the OpenAI completions API.
 *
 * @example
 * const client = new OpenAICompletionsClient({ baseUrl: "http://127.0.0.1:8000/v1", apiKey: "EMPTY" });
 * const response = await client.chat({ model: "Qwen/Qwen3-0.6B-Base", messages, sampling: { max_tokens: 64 } });
 */
export class OpenAICompletionsClient extends OpenAIEndpointClient implements ModelClient {
  readonly type = "openai_completions";
  /** The completions URL, as named in error messages. */
  readonly completionsUrl: string;
  private readonly renderPrompt: TextPromptRenderer;

  constructor(options: OpenAICompletionsClientOptions) {
    super(options);
    this.renderPrompt = options.renderPrompt ?? plainTextPrompt;
    this.completionsUrl = `${this.baseUrl}/completions`;
  }

  /** Renders the prompt, sends it; retries transient failures, then throws the typed errors of errors.ts. */
  async chat(request: ChatRequest, options: ChatCallOptions = {}): Promise<ModelResponse> {
    if (request.tools && request.tools.length > 0) {
      const names = request.tools.map((tool) => tool.function.name).join(", ");
      throw new UserError(
        `the completions API has no tools, and this environment offers ${names}: use the client type openai_chat_completions, openai_responses or anthropic_messages`,
      );
    }
    const body = this.requestBody(request);
    const raw = await this.endpoint.call(this.completionsUrl, request.model, options, (requestOptions) =>
      this.sdk.completions.create(body, requestOptions),
    );
    return completionToModelResponse(raw, this.completionsUrl);
  }

  /**
   * The body: the rendered prompt, sampling args as given, with the chat API's spellings moved to
   * this API's: `max_completion_tokens` to `max_tokens`, and `logprobs: true` (a flag in chat) to
   * `logprobs: <top_logprobs or 0>` (a count here), so `-S '{"logprobs": true}'` works for both.
   */
  private requestBody(request: ChatRequest): CompletionCreateParamsNonStreaming {
    const fields = samplingFields(request.sampling);
    renameTokenLimit(fields, "max_tokens");
    refuseSeveralChoices(fields, "completions API");
    if (fields.logprobs === true) fields.logprobs = fields.top_logprobs ?? 0;
    if (fields.logprobs === false) delete fields.logprobs;
    delete fields.top_logprobs;
    return {
      ...fields,
      model: request.model,
      prompt: this.renderPrompt(request.messages),
    } as unknown as CompletionCreateParamsNonStreaming;
  }
}
