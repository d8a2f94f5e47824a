/**
 * @vf-rl/core/client: the `ModelClient` interface, one client per model API (OpenAI chat completions,
 * text completions and Responses, Anthropic Messages) chosen by `type`, the endpoint registry
 * (configs/endpoints.toml) and replicas, and the model-call failures hosts tell apart.
 */
export { ANTHROPIC_DEFAULT_MAX_TOKENS, AnthropicMessagesClient } from "./anthropic-messages-client.ts";
export { ApiClientType, DEFAULT_CLIENT_TYPE, parseClientType } from "./client-type.ts";
export {
  type CreateModelClientOptions,
  createModelClient,
  type HttpModelClient,
} from "./create-model-client.ts";
export {
  type EndpointAddress,
  type LoadEndpointRegistryOptions,
  loadEndpointRegistry,
} from "./endpoint-registry.ts";
export {
  ApiKeyRejectedError,
  FatalModelError,
  ModelNotFoundError,
  QuotaExhaustedError,
  RunStoppedError,
  STOPPED_RUN_ERROR_NAMES,
} from "./fatal-model-error.ts";
export * from "./model-client.ts";
export type { ModelClientOptions } from "./model-client-options.ts";
export { OpenAICompletionsClient, type OpenAICompletionsClientOptions } from "./openai-completions-client.ts";
export { OpenAIModelClient } from "./openai-model-client.ts";
export { OpenAIResponsesClient } from "./openai-responses-client.ts";
export {
  type ClientSettings,
  clientForEndpoint,
  createReplicaClient,
  ReplicaClient,
} from "./replica-client.ts";
export {
  type ResolvedModel,
  type ResolveModelOptions,
  resolveApiKey,
  resolveModel,
} from "./resolve-model.ts";
export { plainTextPrompt, type TextPromptRenderer } from "./text-prompt.ts";
