/**
 * @vf-rl/core/client: what hosts need to reach models: the endpoint registry
 * (configs/endpoints.toml), the model APIs (client types) and a client for each, resolving a model to
 * its replicas (each with the client of its API) and keys, and the shapes of a chat call for hosts that wrap a client or carry its turns (the
 * trainer, the env server). The model-call errors hosts tell apart are in @vf-rl/core/errors;
 * `OpenAIModelClient` and `ModelClient` are in the root export.
 */
export { ApiClientType, parseClientType } from "./client-type.ts";
export { createModelClient } from "./create-model-client.ts";
export { type EndpointAddress, type EndpointRegistry, loadEndpointRegistry } from "./endpoint-registry.ts";
export {
  type ChatCallOptions,
  type ChatRequest,
  type ModelResponse,
  SamplingArgs,
  type TurnTokens,
} from "./model-client.ts";
export { createReplicaClient } from "./replica-client.ts";
export {
  type ResolvedModel,
  type ResolveModelOptions,
  resolveApiKey,
  resolveModel,
} from "./resolve-model.ts";
export type { TextPromptRenderer } from "./text-prompt.ts";
