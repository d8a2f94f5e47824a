/**
 * `ModelClient` over OpenAI's Responses API (client type `openai_responses`), through the `openai`
 * package's `responses.create`. The conversation is sent whole as `input` items each turn (nothing
 * is chained through `previous_response_id`), so a rollout reads the same as over chat completions.
 */
import type { ResponseCreateParamsNonStreaming } from "openai/resources/responses/responses";
import type { ChatCallOptions, ChatRequest, ModelClient, ModelResponse } from "./model-client.ts";
import type { ModelClientOptions } from "./model-client-options.ts";
import { OpenAIEndpointClient } from "./openai-endpoint-client.ts";
import { responsesInput, responsesTools } from "./responses-input.ts";
import { responsesToModelResponse } from "./responses-output.ts";
import { refuseSeveralChoices, renameTokenLimit, samplingFields } from "./sampling-fields.ts";

/**
 * A model endpoint spoken to over the OpenAI Responses API.
 *
 * @example
 * const client = new OpenAIResponsesClient({ baseUrl: "https://api.openai.com/v1", apiKey: process.env.OPENAI_API_KEY! });
 * const response = await client.chat({ model: "gpt-4.1-mini", messages, sampling: { max_tokens: 256 } });
 */
export class OpenAIResponsesClient extends OpenAIEndpointClient implements ModelClient {
  readonly type = "openai_responses";
  /** The responses URL, as named in error messages. */
  readonly responsesUrl: string;

  constructor(options: ModelClientOptions) {
    super(options);
    this.responsesUrl = `${this.baseUrl}/responses`;
  }

  /** Sends one request; retries transient failures, then throws the typed errors of errors.ts. */
  async chat(request: ChatRequest, options: ChatCallOptions = {}): Promise<ModelResponse> {
    const body = requestBody(request);
    const raw = await this.endpoint.call(this.responsesUrl, request.model, options, (requestOptions) =>
      this.sdk.responses.create(body, requestOptions),
    );
    return responsesToModelResponse(raw, this.responsesUrl);
  }
}

/**
 * The body: `input` items and function tools, sampling args as given with the token limit moved to
 * `max_output_tokens` and `reasoning_effort` to `reasoning.effort`, so -t and the chat API's
 * spellings mean the same here.
 */
export function requestBody(request: ChatRequest): ResponseCreateParamsNonStreaming {
  const fields = samplingFields(request.sampling);
  renameTokenLimit(fields, "max_output_tokens");
  refuseSeveralChoices(fields, "Responses API");
  if (fields.reasoning_effort !== undefined) {
    fields.reasoning = { ...(fields.reasoning as object | undefined), effort: fields.reasoning_effort };
    delete fields.reasoning_effort;
  }
  const body: Record<string, unknown> = {
    ...fields,
    model: request.model,
    input: responsesInput(request.messages),
  };
  if (request.tools && request.tools.length > 0) body.tools = responsesTools(request.tools);
  return body as unknown as ResponseCreateParamsNonStreaming;
}
