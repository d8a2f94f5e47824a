/**
 * The interface every environment talks to a model through. One implementation per model API
 * (client-type.ts: OpenAI chat completions, text completions, Responses, Anthropic Messages); the
 * trainer wraps the same interface. Responses are normalised to `ModelResponse`, whatever the API,
 * which keeps the per-turn token ids and logprobs training needs.
 */
import { z } from "zod";
import type { AssistantMessage, Messages } from "../messages/message.ts";
import type { ToolDefinition } from "../tools/tool.ts";

/** Sampling arguments, passed through to the server untouched (max_tokens, temperature, top_p, ...). */
export const SamplingArgs = z.record(z.string(), z.unknown());
export type SamplingArgs = z.infer<typeof SamplingArgs>;

const optional = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

/**
 * Sampling arguments with the keys every OpenAI-compatible server reads checked for their type, for
 * where a user writes them (vf eval's -S and [sampling]): a wrong value is then one line there,
 * not a 400 on every request. Other keys (vLLM's extras, a provider's own) pass as given, and null
 * removes a key, as in the interception server's overrides.
 */
export const CheckedSamplingArgs = z.looseObject({
  temperature: optional(z.number().min(0)),
  top_p: optional(z.number().gt(0).max(1)),
  top_k: optional(z.number().int().min(-1)),
  min_p: optional(z.number().min(0).max(1)),
  max_tokens: optional(z.number().int().positive()),
  max_completion_tokens: optional(z.number().int().positive()),
  n: optional(z.number().int().positive()),
  seed: optional(z.number().int()),
  stop: optional(z.union([z.string(), z.array(z.string())])),
  presence_penalty: optional(z.number().min(-2).max(2)),
  frequency_penalty: optional(z.number().min(-2).max(2)),
  repetition_penalty: optional(z.number().positive()),
  logprobs: optional(z.boolean()),
  top_logprobs: optional(z.number().int().min(0)),
});

/** One chat call: the model, the conversation so far, the tools offered and the sampling args. */
export interface ChatRequest {
  model: string;
  messages: Messages;
  /** Tool definitions offered to the model; omitted from the request when empty. */
  tools?: ToolDefinition[];
  sampling: SamplingArgs;
}

/** Why the model stopped: OpenAI's finish_reason, with anything else as "other". */
export type FinishReason = "stop" | "length" | "tool_calls" | "content_filter" | "other";

/** Token ids and sampler logprobs of one model turn, when the server returns vLLM's fields. */
export interface TurnTokens {
  /** `prompt_token_ids`: the whole prompt of this turn as the server tokenised it. */
  promptIds: number[];
  /** `choices[0].token_ids`: the sampled tokens. */
  completionIds: number[];
  /** `choices[0].logprobs.content[i].logprob`: the sampler's logprob of each sampled token. */
  completionLogprobs: number[];
}

/** Tokens a call used, as the server counted them. */
export interface ModelUsage {
  promptTokens: number;
  completionTokens: number;
}

/** A model's answer to one chat call, normalised across servers. */
export interface ModelResponse {
  id: string;
  model: string;
  message: AssistantMessage;
  finishReason: FinishReason;
  usage: ModelUsage;
  /** Null when the server did not return token ids (OpenAI, most hosted APIs). */
  tokens: TurnTokens | null;
}

/** Per-call options of `ModelClient.chat`. */
export interface ChatCallOptions {
  /** Aborts the call (the rollout's timeout or a Ctrl-C). */
  signal?: AbortSignal;
  /** Headers of this request only, over the endpoint's own (e.g. X-Session-ID from the rollout's state). */
  headers?: Record<string, string>;
}

/** A model endpoint. Implementations retry transient failures and throw the typed errors of errors.ts. */
export interface ModelClient {
  /** The base URL, for metadata and messages. */
  readonly baseUrl: string;
  chat(request: ChatRequest, options?: ChatCallOptions): Promise<ModelResponse>;
  /**
   * One cheap request before a run (listing the models): throws `EndpointUnreachableError` when
   * nothing answers and `ApiKeyRejectedError` when the key is refused, so a run stops with one line
   * instead of failing every rollout. Other answers pass. Optional: in-process clients have none.
   */
  preflight?(): Promise<void>;
  /** Releases connections; optional, as in-process clients hold none. */
  close?(): Promise<void>;
}
