/**
 * @vf-rl/core/client: what hosts need to reach models: the endpoint registry
 * (configs/endpoints.toml), resolving a model to its replicas (each with the client of its API)
 * and keys, and the shapes of a chat call for hosts that wrap a client or carry its turns (the
 * trainer, the env server). The model-call errors hosts tell apart are in @vf-rl/core/errors;
 * `OpenAIModelClient` and `ModelClient` are in the root export.
 */
export { type EndpointAddress, loadEndpointRegistry } from "./endpoint-registry.ts";
export {
  type ChatCallOptions,
  type ChatRequest,
  type ModelResponse,
  SamplingArgs,
  type TurnTokens,
} from "./model-client.ts";
export { createReplicaClient, ReplicaClient } from "./replica-client.ts";
export { resolveApiKey, resolveModel } from "./resolve-model.ts";
