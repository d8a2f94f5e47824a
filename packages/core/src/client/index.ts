/**
 * @vf-rl/core/client: what hosts need to reach models, one route for all of them: the providers and
 * the endpoint registry (configs/endpoints.toml), resolving a model to its endpoints and keys
 * (`resolveRoute`), the model APIs (client types) and a client for each, a run's replicas
 * (`createReplicaClient`), the response cache (`ResponseCache`, `CachedModelClient`), clients leased for endpoints that requests name (`ClientLeases`), and the shapes of a chat call for hosts that wrap a client or carry its turns (the
 * trainer, the env server). The model-call errors hosts tell apart (a replay's `CacheMissError` too)
 * are in @vf-rl/core/errors;
 * `OpenAIModelClient` and `ModelClient` are in the root export.
 */

export { CachedModelClient } from "./cached-model-client.ts";
export { ClientLeases, type EndpointConfig } from "./client-leases.ts";
export { ApiClientType, parseClientType } from "./client-type.ts";
export { createModelClient } from "./create-model-client.ts";
export { type EndpointAddress, type EndpointRegistry, loadEndpointRegistry } from "./endpoint-registry.ts";
export {
  type ChatCallOptions,
  type ChatRequest,
  CheckedSamplingArgs,
  type ModelResponse,
  SamplingArgs,
} from "./model-client.ts";
export { resolveRoute } from "./model-route.ts";
export { createReplicaClient } from "./replica-client.ts";
export { NO_API_KEY, type ResolvedModel, resolveApiKey } from "./resolve-model.ts";
export { ResponseCache } from "./response-cache.ts";
export type { TextPromptRenderer } from "./text-prompt.ts";
