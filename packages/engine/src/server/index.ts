/** The engine's OpenAI-compatible HTTP server (with vLLM's token fields and weight updates). */

export { ApiError, type ErrorBody } from "./api-error.ts";
export { type EngineServer, type EngineServerOptions, startEngineServer } from "./engine-server.ts";
export {
  type Generated,
  type GenerateRequest,
  GenerationCancelledError,
  GenerationScheduler,
  type GenerationSchedulerOptions,
} from "./generation-scheduler.ts";
export { ChatCompletionRequest, CompletionRequest, UpdateWeightsRequest } from "./request-schemas.ts";
