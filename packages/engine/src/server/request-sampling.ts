/**
 * From a request's sampling fields to the engine's SamplingParams, refusing what the engine cannot
 * do (presence and frequency penalties, logit bias) with a 400 rather than ignoring it.
 */
import type { ModelConfig } from "../config.ts";
import { SamplingParams } from "../trainer/protocol.ts";
import { ApiError, badRequest, contextLengthExceeded } from "./api-error.ts";
import type { SamplingFields } from "./request-schemas.ts";

/** Server-wide settings that shape every request's sampling. */
export interface SamplingDefaults {
  /** Which logprob is returned per token: of the processed distribution (default) or the raw softmax. */
  logprobsMode: "processed" | "raw";
}

/** The sampling params of a request, for a prompt of `promptTokens` tokens. */
export function samplingParamsOf(
  fields: SamplingFields,
  promptTokens: number,
  config: ModelConfig,
  defaults: SamplingDefaults,
): SamplingParams {
  if (promptTokens > config.maxSeqLen) throw contextLengthExceeded(promptTokens, config.maxSeqLen);
  for (const key of ["presence_penalty", "frequency_penalty"] as const) {
    const value = fields[key];
    if (value !== null && value !== undefined && value !== 0) {
      throw badRequest(
        `${key} is not supported by this engine: remove it (repetition_penalty is supported)`,
        key,
      );
    }
  }
  if (fields.logit_bias && Object.keys(fields.logit_bias).length > 0) {
    throw badRequest("logit_bias is not supported by this engine: remove it", "logit_bias");
  }
  const stop = fields.stop === null || fields.stop === undefined ? [] : [fields.stop].flat();
  for (const id of fields.stop_token_ids ?? []) {
    if (id >= config.vocabSize) {
      throw badRequest(
        `stop_token_ids: ${id} is outside the vocabulary of ${config.vocabSize}: use this model's token ids`,
        "stop_token_ids",
      );
    }
  }
  const result = SamplingParams.safeParse({
    // the sampler caps this at the room left in the context
    maxTokens: fields.max_completion_tokens ?? fields.max_tokens ?? config.maxSeqLen,
    temperature: fields.temperature ?? 1,
    topP: fields.top_p ?? 1,
    topK: fields.top_k ?? 0,
    minP: fields.min_p ?? 0,
    repetitionPenalty: fields.repetition_penalty ?? 1,
    stop: stop.filter((s) => s !== ""),
    stopTokenIds: fields.stop_token_ids ?? [],
    ignoreEos: fields.ignore_eos ?? false,
    // without a seed, every request draws differently (as OpenAI and vLLM do)
    seed: fields.seed ?? Math.floor(Math.random() * 2 ** 31),
    logprobsMode: defaults.logprobsMode,
  });
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ApiError(400, `invalid sampling parameters: ${issue.message}`, "invalid_request_error");
  }
  return result.data;
}
