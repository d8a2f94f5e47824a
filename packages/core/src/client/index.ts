/**
 * @vf-rl/core/client: the `ModelClient` interface, the OpenAI-compatible client, the endpoint
 * registry (configs/endpoints.toml) and replicas, and the model-call failures hosts tell apart.
 */
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
export { OpenAIModelClient, type OpenAIModelClientOptions } from "./openai-model-client.ts";
export { createReplicaClient, ReplicaClient } from "./replica-client.ts";
export {
  type ResolvedModel,
  type ResolveModelOptions,
  resolveApiKey,
  resolveModel,
} from "./resolve-model.ts";
