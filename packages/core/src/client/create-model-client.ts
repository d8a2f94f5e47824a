/**
 * One client per model API, chosen by the discriminated `type`: what an endpoint of the registry, a
 * provider or `--api-client-type` names. Every client takes the same options and returns the same
 * `ModelResponse`, so callers never look at the type again.
 */
import { AnthropicMessagesClient } from "./anthropic-messages-client.ts";
import type { ApiClientType } from "./client-type.ts";
import type { ModelClient } from "./model-client.ts";
import type { ModelClientOptions } from "./model-client-options.ts";
import { OpenAICompletionsClient } from "./openai-completions-client.ts";
import { OpenAIModelClient } from "./openai-model-client.ts";
import { OpenAIResponsesClient } from "./openai-responses-client.ts";
import type { TextPromptRenderer } from "./text-prompt.ts";

/** Options of `createModelClient`: the endpoint's, the API, and for text completions the prompt renderer. */
export interface CreateModelClientOptions extends ModelClientOptions {
  type: ApiClientType;
  /** `openai_completions` only: how the conversation becomes text; default `plainTextPrompt`. */
  renderPrompt?: TextPromptRenderer;
}

/** A model client of an HTTP API: it can be checked before a run and closed after. */
export type HttpModelClient = ModelClient & { preflight(): Promise<void>; close(): Promise<void> };

/**
 * The client for `options.type`.
 *
 * @example
 * const client = createModelClient({ type: "anthropic_messages", baseUrl: "https://api.anthropic.com", apiKey });
 */
export function createModelClient(options: CreateModelClientOptions): HttpModelClient {
  const { type, renderPrompt, ...endpoint } = options;
  switch (type) {
    case "openai_chat_completions":
      return new OpenAIModelClient(endpoint);
    case "openai_completions":
      return new OpenAICompletionsClient({ ...endpoint, ...(renderPrompt ? { renderPrompt } : {}) });
    case "openai_responses":
      return new OpenAIResponsesClient(endpoint);
    case "anthropic_messages":
      return new AnthropicMessagesClient(endpoint);
  }
}
