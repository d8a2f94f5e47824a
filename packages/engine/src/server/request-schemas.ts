/**
 * The request bodies the engine server accepts: OpenAI's chat-completions and completions requests
 * with vLLM's extra sampling fields (top_k, min_p, repetition_penalty, stop_token_ids, ignore_eos,
 * return_token_ids, and prompt_logprobs on completions), and vLLM's weight-update request. Unknown fields are dropped, as OpenAI
 * clients send many this server has no use for (user, metadata, store, ...); `null` means absent.
 */
import { z } from "zod";
import { ChatTool } from "../tokenizer/tools-section.ts";

/** Sampling fields shared by both completion routes. */
const SamplingFields = {
  /** Completions per prompt (default 1); choice j draws from stream j of the seed. */
  n: z.number().int().min(1).max(128).nullish(),
  /** Most tokens to generate (default: the rest of the context). */
  max_tokens: z.number().int().positive().nullish(),
  /** OpenAI's newer name for max_tokens; wins when both are given. */
  max_completion_tokens: z.number().int().positive().nullish(),
  temperature: z.number().min(0).nullish(),
  top_p: z.number().gt(0).max(1).nullish(),
  top_k: z.number().int().min(-1).nullish(),
  min_p: z.number().min(0).max(1).nullish(),
  repetition_penalty: z.number().positive().nullish(),
  /** Only 0 is supported (the engine has no presence or frequency penalty; use repetition_penalty). */
  presence_penalty: z.number().nullish(),
  frequency_penalty: z.number().nullish(),
  /** Seed of the draws (default: a fresh random seed per request). */
  seed: z.number().int().nullish(),
  stop: z.union([z.string(), z.array(z.string())]).nullish(),
  stop_token_ids: z.array(z.number().int().nonnegative()).nullish(),
  ignore_eos: z.boolean().nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().nullish() }).nullish(),
  /** vLLM: return `prompt_token_ids` and `choices[].token_ids`. */
  return_token_ids: z.boolean().nullish(),
  /** Only an empty bias is supported. */
  logit_bias: z.record(z.string(), z.number()).nullish(),
};

/** A content part; only text parts can be read by this model (checked when rendering). */
const ContentPart = z.object({ type: z.string(), text: z.string().optional() });

/** A tool call of an assistant message in the history. */
const RequestToolCall = z.object({
  id: z.string().nullish(),
  type: z.literal("function").nullish(),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

/** A chat message as OpenAI clients send it; `developer` is read as `system`. */
export const RequestMessage = z.object({
  role: z.enum(["system", "developer", "user", "assistant", "tool"]),
  content: z.union([z.string(), z.array(ContentPart), z.null()]).optional(),
  tool_calls: z.array(RequestToolCall).nullish(),
  tool_call_id: z.string().nullish(),
  name: z.string().nullish(),
});
export type RequestMessage = z.infer<typeof RequestMessage>;

/** A function tool offered to the model. */
export const RequestTool = ChatTool;
export type RequestTool = z.infer<typeof RequestTool>;

/** POST /v1/chat/completions. */
export const ChatCompletionRequest = z.object({
  model: z.string(),
  messages: z.array(RequestMessage).min(1),
  tools: z.array(RequestTool).nullish(),
  /** "auto" (default) or "none"; forcing a call ("required", a named function) is not supported. */
  tool_choice: z
    .union([
      z.enum(["none", "auto", "required"]),
      z.object({ type: z.literal("function"), function: z.object({ name: z.string() }) }),
    ])
    .nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  /** Return `choices[].logprobs.content` (and the token ids). */
  logprobs: z.boolean().nullish(),
  /** Alternatives listed beside each token, 0 to 20. */
  top_logprobs: z.number().int().min(0).max(20).nullish(),
  /** vLLM: end the prompt with the assistant marker (default true). */
  add_generation_prompt: z.boolean().nullish(),
  response_format: z.object({ type: z.string() }).nullish(),
  ...SamplingFields,
});
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequest>;

/** POST /v1/completions: a text prompt, several, or token ids. */
export const CompletionRequest = z.object({
  model: z.string(),
  prompt: z.union([
    z.string(),
    z.array(z.string()).min(1),
    z.array(z.number().int().nonnegative()).min(1),
    z.array(z.array(z.number().int().nonnegative()).min(1)).min(1),
  ]),
  /** The legacy logprobs: how many alternatives to list beside each token (0 lists none). */
  logprobs: z.number().int().min(0).max(20).nullish(),
  /**
   * vLLM: score the prompt itself, `choices[].prompt_logprobs`: each prompt token's logprob given
   * the tokens before it, with this many of the most likely tokens beside it (0: the token alone).
   */
  prompt_logprobs: z.number().int().min(0).max(20).nullish(),
  /** Only false is supported. */
  echo: z.boolean().nullish(),
  /** Only an empty suffix is supported. */
  suffix: z.string().nullish(),
  ...SamplingFields,
});
export type CompletionRequest = z.infer<typeof CompletionRequest>;

/** The sampling fields of either request. */
export type SamplingFields = Pick<ChatCompletionRequest, keyof typeof SamplingFields>;

/** POST /update_weights: a checkpoint directory (config.json and model.safetensors) to load. */
export const UpdateWeightsRequest = z.object({ weight_dir: z.string().min(1) }).strict();
export type UpdateWeightsRequest = z.infer<typeof UpdateWeightsRequest>;
