/**
 * The trainer protocol: a few primitives in the spirit of Tinker (forwardBackward, optimStep,
 * saveWeights, loadWeights, sample), with every request and result as a zod schema so an HTTP
 * backend can validate the very same shapes. The RL loop is written once against `Trainer`; the
 * in-process engine (local-trainer.ts) is its first implementation.
 */
import { z } from "zod";

// ---------------------------------------------------------------------------------------------
// Batches

/**
 * One training sequence. All arrays have the length T of `tokens`; position t holds the values for
 * predicting tokens[t] from tokens[<t], so position 0 (no context) is never trained.
 */
export const BatchItem = z
  .object({
    /** Token ids, prompt and completion together. */
    tokens: z.array(z.number().int().nonnegative()).min(1),
    /** 1 where the token was sampled and is trained, 0 elsewhere (prompt, tool output, padding). */
    mask: z.array(z.union([z.literal(0), z.literal(1)])),
    /** Log-probability of each token under the sampler (0 where mask is 0); policy-gradient losses. */
    samplerLogprobs: z.array(z.number()).optional(),
    /** Advantage of each token (0 where mask is 0); policy-gradient losses. */
    advantages: z.array(z.number()).optional(),
  })
  .strict();
export type BatchItem = z.infer<typeof BatchItem>;

/** A training batch: at least one item; items may have different lengths. */
export const Batch = z.array(BatchItem).min(1);
export type Batch = BatchItem[];

// ---------------------------------------------------------------------------------------------
// Losses (a discriminated union on `type`). Each is a mean over the trained tokens of the batch.

/** Supervised fine-tuning: mean of −log p(token) over trained tokens. */
export const CrossEntropyLoss = z.object({ type: z.literal("cross_entropy") }).strict();
export type CrossEntropyLoss = z.infer<typeof CrossEntropyLoss>;

/**
 * Importance-sampling policy gradient: −mean(r · A) with r = exp(logp − logp_sampler); the
 * gradient flows through r. `temperature` divides the logits first, as the sampler did (default 1).
 */
export const ImportanceSamplingLoss = z
  .object({
    type: z.literal("importance_sampling"),
    temperature: z.number().positive().default(1),
  })
  .strict();
export type ImportanceSamplingLoss = z.infer<typeof ImportanceSamplingLoss>;

/**
 * The importance-sampling loss with token masking (CISPO/IcePop style, verifiers' RLTrainer): a
 * token whose ratio r leaves [maskLow, maskHigh] (defaults 0.125, 8) contributes neither loss nor
 * gradient, but still counts in the mean's denominator.
 */
export const MaskedImportanceSamplingLoss = z
  .object({
    type: z.literal("masked_importance_sampling"),
    maskLow: z.number().positive().default(0.125),
    maskHigh: z.number().positive().default(8),
    temperature: z.number().positive().default(1),
  })
  .strict()
  .refine((l) => l.maskLow < l.maskHigh, { message: "maskLow must be below maskHigh", path: ["maskLow"] });
export type MaskedImportanceSamplingLoss = z.infer<typeof MaskedImportanceSamplingLoss>;

/** Every loss the trainer computes, told apart by `type`. */
export const Loss = z.discriminatedUnion("type", [
  CrossEntropyLoss,
  ImportanceSamplingLoss,
  MaskedImportanceSamplingLoss,
]);
export type Loss = z.infer<typeof Loss>;
/** A loss as written by hand: defaults may be left out. */
export type LossInput = z.input<typeof Loss>;

/** What one forward(+backward) pass reports. Means are over the trained tokens (mask 1) of the batch. */
export const ForwardBackwardResult = z.object({
  /** The loss whose gradient was accumulated. */
  loss: z.number(),
  /** Mean entropy of the model's next-token distribution (at the loss's temperature). */
  entropy: z.number(),
  /** Mean of r − log r − 1 (r = trainer/sampler probability ratio); null without sampler logprobs. */
  mismatchKl: z.number().nullable(),
  /** Share of trained tokens the masked loss dropped for leaving the ratio band (0 for other losses). */
  maskedShare: z.number(),
  /** Number of trained tokens. */
  numTokens: z.number().int(),
  /** The trainer's log-probability of every token, per item (0 where mask is 0 and at position 0). */
  logprobs: z.array(z.array(z.number())),
});
export type ForwardBackwardResult = z.infer<typeof ForwardBackwardResult>;

// ---------------------------------------------------------------------------------------------
// Optimizer

/** AdamW hyperparameters for one step (Tinker's AdamParams). */
export const AdamParams = z
  .object({
    /** Learning rate of this step; schedules are computed by the caller (see lr-schedule.ts). */
    learningRate: z.number().nonnegative(),
    beta1: z.number().min(0).lt(1).default(0.9),
    beta2: z.number().min(0).lt(1).default(0.95),
    eps: z.number().positive().default(1e-8),
    /** Decoupled weight decay, applied to matrices and the embedding, never to norm gains (default 0). */
    weightDecay: z.number().nonnegative().default(0),
    /** Clip the global gradient norm to this value; 0 turns clipping off (default 0). */
    gradClipNorm: z.number().nonnegative().default(0),
  })
  .strict();
export type AdamParams = z.infer<typeof AdamParams>;
export type AdamParamsInput = z.input<typeof AdamParams>;

/** What one optimizer step reports. */
export const OptimStepResult = z.object({
  /** Number of optimizer steps taken so far, this one included. */
  step: z.number().int(),
  /** Global L2 norm of the gradient before clipping. */
  gradNorm: z.number(),
  /** Learning rate applied. */
  learningRate: z.number(),
});
export type OptimStepResult = z.infer<typeof OptimStepResult>;

// ---------------------------------------------------------------------------------------------
// Sampling

/**
 * How to pick tokens. Logits are processed in vLLM's order: repetition penalty, temperature,
 * min_p, top_k, top_p; then a token is drawn from what is left.
 */
export const SamplingParams = z
  .object({
    /** Most tokens to generate (default 256); also bounded by the model's context. */
    maxTokens: z.number().int().positive().default(256),
    /** Softmax temperature; 0 picks the most likely token (default 1). */
    temperature: z.number().nonnegative().default(1),
    /** Keep the smallest set of tokens whose probability reaches top_p (default 1: all). */
    topP: z.number().gt(0).max(1).default(1),
    /** Keep the k most likely tokens; 0 or -1 keeps all (default 0). */
    topK: z.number().int().min(-1).default(0),
    /** Drop tokens less likely than min_p times the most likely one (default 0: none). */
    minP: z.number().min(0).max(1).default(0),
    /** > 1 discourages tokens already in the prompt or output (vLLM/HF semantics, default 1: off). */
    repetitionPenalty: z.number().positive().default(1),
    /** Stop when the output ends with one of these strings; the text excludes it (default none). */
    stop: z.array(z.string().min(1)).default([]),
    /** Stop after one of these token ids, in addition to end-of-turn (default none). */
    stopTokenIds: z.array(z.number().int().nonnegative()).default([]),
    /** Keep going past the end-of-turn token (default false). */
    ignoreEos: z.boolean().default(false),
    /** Seed of this request's random draws; the same seed gives the same tokens (default 0). */
    seed: z.number().int().default(0),
    /**
     * Which log-probability is returned for each token: "processed" (default), of the distribution the
     * token was drawn from, after penalty, temperature and truncation, the one an importance-sampling
     * loss needs and what prime-rl asks vLLM for (`logprobs_mode=processed_logprobs`); or "raw", of
     * the model's own softmax, which is vLLM's server default (`raw_logprobs`).
     */
    logprobsMode: z.enum(["processed", "raw"]).default("processed"),
  })
  .strict();
export type SamplingParams = z.infer<typeof SamplingParams>;
export type SamplingParamsInput = z.input<typeof SamplingParams>;

/** Prompts to complete, how many completions each, and how to sample. */
export const SampleRequest = z
  .object({
    /** Prompts as token ids (render chats with `renderChat`). */
    prompts: z.array(z.array(z.number().int().nonnegative()).min(1)).min(1),
    /** Completions per prompt (default 1); sample j of a prompt draws with seed + j. */
    numSamples: z.number().int().positive().default(1),
    params: SamplingParams.default(SamplingParams.parse({})),
  })
  .strict();
export type SampleRequest = z.infer<typeof SampleRequest>;
export type SampleRequestInput = z.input<typeof SampleRequest>;

/** Why a sequence stopped: "stop" (end-of-turn, a stop token or string) or "length" (max tokens or context). */
export const FinishReason = z.enum(["stop", "length"]);
export type FinishReason = z.infer<typeof FinishReason>;

/** One sampled completion. */
export const SampledSequence = z.object({
  /** Generated token ids, the stop token included. */
  tokens: z.array(z.number().int()),
  /** Log-probability of each generated token (see SamplingParams.logprobsMode). */
  logprobs: z.array(z.number()),
  /** Decoded text without special tokens, cut before a matched stop string. */
  text: z.string(),
  finishReason: FinishReason,
  /** The stop string or stop token id that ended the sequence; null for end-of-turn or length (vLLM's stop_reason). */
  stopReason: z.union([z.string(), z.number().int(), z.null()]),
});
export type SampledSequence = z.infer<typeof SampledSequence>;

/** The completions of a sample request. */
export const SampleResult = z.object({
  /** samples[i][j] is the j-th completion of prompt i. */
  samples: z.array(z.array(SampledSequence)),
});
export type SampleResult = z.infer<typeof SampleResult>;

// ---------------------------------------------------------------------------------------------
// Checkpoints

export const SaveWeightsResult = z.object({
  /** Directory holding `model.safetensors` and `config.json`, loadable by the inference side. */
  path: z.string(),
});
export type SaveWeightsResult = z.infer<typeof SaveWeightsResult>;

// ---------------------------------------------------------------------------------------------
// The interface

/** The trainer primitives. All are async so an HTTP backend has the same shape as the in-process one. */
export interface Trainer {
  /**
   * Runs the batch, accumulates the gradient of `loss`, and reports its metrics. The loss is the mean
   * over this call's trained tokens; several calls before one optimStep add their gradients.
   */
  forwardBackward(batch: Batch, loss: LossInput): Promise<ForwardBackwardResult>;
  /** Runs the batch and reports the metrics of `loss` without touching the gradients. */
  forward(batch: Batch, loss: LossInput): Promise<ForwardBackwardResult>;
  /** Applies the accumulated gradient with AdamW, then zeroes it. */
  optimStep(params: AdamParamsInput): Promise<OptimStepResult>;
  /** Writes the weights and config to `dir` (created if needed) for the inference side to load. */
  saveWeights(dir: string): Promise<SaveWeightsResult>;
  /** Replaces the weights with those saved in `dir`; gradients and optimizer moments restart at zero. */
  loadWeights(dir: string): Promise<void>;
  /**
   * Writes the whole training state to `dir`: the weights as saveWeights writes them, plus the
   * optimizer's moments and step count, so that loadState resumes training exactly.
   */
  saveState(dir: string): Promise<SaveWeightsResult>;
  /** Restores the weights and optimizer state saved by saveState; gradients restart at zero. */
  loadState(dir: string): Promise<void>;
  /** Samples completions of token prompts with the current weights. */
  sample(request: SampleRequestInput): Promise<SampleResult>;
  /** Releases worker threads; the trainer cannot be used afterwards. */
  close(): Promise<void>;
}
