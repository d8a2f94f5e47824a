/**
 * The logprob of every token of a prompt given the tokens before it (vLLM's `prompt_logprobs`), in
 * one forward pass over the whole prompt: what a frozen teacher answers when it scores a student's
 * samples (on-policy distillation), or what a loglikelihood eval asks. Scores are the raw softmax
 * (temperature 1), as vLLM's are; the training forward's logits equal the sampler's bit for bit, so
 * a token sampled at temperature 1 scores exactly the logprob its sampler reported.
 */
import { SamplingError, SequenceTooLongError } from "../errors.ts";
import type { Transformer } from "../model.ts";
import { packSequences } from "../packed-batch.ts";
import { LogitsProcessor, type Scored } from "./logits-processor.ts";

/**
 * Scores tokens[1..] of `tokens` under `model` (the first token has no context and no score):
 * entry t − 1 is token t's logprob, rank and the `topLogprobs` most likely tokens at position t.
 */
export function scorePrompt(model: Transformer, tokens: readonly number[], topLogprobs = 0): Scored[] {
  const { vocabSize: V, maxSeqLen } = model.config;
  if (tokens.length > maxSeqLen) throw new SequenceTooLongError(tokens.length, maxSeqLen);
  for (const token of tokens) {
    if (!Number.isInteger(token) || token < 0 || token >= V) {
      throw new SamplingError(
        `token id ${token} is outside the vocabulary of ${V}: use this model's token ids`,
      );
    }
  }
  if (tokens.length < 2) return [];
  // row t's logits predict token t + 1
  const rows = Array.from({ length: tokens.length - 1 }, (_, t) => t);
  const logits = model.forward(packSequences([tokens], rows)); // (T − 1, V)
  const processor = new LogitsProcessor(V);
  return rows.map((t) => processor.score(logits, t * V, tokens[t + 1]!, topLogprobs));
}
