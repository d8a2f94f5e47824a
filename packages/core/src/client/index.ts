/** Model clients: the `ModelClient` interface, the OpenAI-compatible client, the endpoint registry. */

export { ChatCompletionBody, ChatCompletionChoice, toModelResponse } from "./chat-response.ts";
export {
  type EndpointAddress,
  EndpointRegistry,
  EndpointRow,
  EndpointsFile,
  type LoadEndpointRegistryOptions,
  loadEndpointRegistry,
  parseEndpointRegistry,
  type RegistryEntry,
} from "./endpoint-registry.ts";
export { ApiKeyRejectedError, ModelNotFoundError } from "./model-call-failure.ts";
export * from "./model-client.ts";
export { OpenAIModelClient, type OpenAIModelClientOptions, requestBody } from "./openai-model-client.ts";
export {
  type ClientSettings,
  createModelClient,
  createReplicaClient,
  ReplicaClient,
} from "./replica-client.ts";
export {
  type ResolvedModel,
  type ResolveModelOptions,
  resolveApiKey,
  resolveModel,
} from "./resolve-model.ts";
