/**
 * One optimizer step over a batch, through the trainer protocol: forwardBackward on micro-batches
 * of `microBatchSize` rollouts, then optimStep.
 *
 * The step's loss is a token mean over the whole batch (prime-rl's normalisation), so the gradient
 * does not depend on how the batch is cut. The trainer takes the mean over each call's own sampled
 * tokens; scaling a micro-batch's advantages by its share of the batch's sampled tokens (n_m / N)
 * turns the sum of the calls' means into the batch mean, as the policy-gradient losses are linear
 * in the advantage. Entropy, mismatch KL and the masked share are averaged with the same weights.
 */
import { UserError } from "@vf-rl/core";
import type { AdamParamsInput, BatchItem, LossInput, Trainer } from "@vf-rl/engine";

/** What a step reports. */
export interface StepTrainResult {
  /** Token-mean loss of the batch. */
  loss: number;
  /** Token-mean entropy of the trainer's distribution at the sampled tokens' positions. */
  entropy: number;
  /** Token-mean r − log r − 1 between trainer and sampler. */
  mismatchKl: number;
  /** Share of sampled tokens the ratio band dropped. */
  maskedShare: number;
  /** Gradient norm before clipping. */
  gradNorm: number;
  learningRate: number;
  /** Sampled (trained) tokens in the batch. */
  trainedTokens: number;
  /** forwardBackward calls made. */
  microBatches: number;
  /** Milliseconds in forwardBackward calls and in optimStep. */
  forwardBackwardMs: number;
  optimMs: number;
}

/** Options of `trainStep`. */
export interface TrainStepOptions {
  /** Rollouts per forwardBackward call. */
  microBatchSize: number;
  loss: LossInput;
  adam: AdamParamsInput;
}

/** Runs one step on `items_B_D` (the items of each rollout of the batch). */
export async function trainStep(
  trainer: Trainer,
  items_B_D: readonly (readonly BatchItem[])[],
  options: TrainStepOptions,
): Promise<StepTrainResult> {
  const N = items_B_D.reduce((n, items) => n + items.reduce((m, item) => m + sampled(item), 0), 0);
  if (N === 0) {
    // an optimizer step on a zero gradient would still move the weights (Adam's momentum)
    throw new UserError(
      "the batch has no sampled tokens to train on (every rollout's completion is empty): check that the environment lets the model answer",
    );
  }
  const totals = { loss: 0, entropy: 0, mismatchKl: 0, maskedShare: 0 };
  let microBatches = 0;
  const started = performance.now();
  for (let start = 0; start < items_B_D.length; start += options.microBatchSize) {
    const micro_D = items_B_D.slice(start, start + options.microBatchSize).flat();
    const n = micro_D.reduce((m, item) => m + sampled(item), 0);
    if (n === 0) continue;
    const share = n / N;
    const scaled_D = micro_D.map((item) => ({
      ...item,
      advantages: item.advantages!.map((a) => a * share),
    }));
    const result = await trainer.forwardBackward(scaled_D, options.loss);
    microBatches += 1;
    totals.loss += result.loss;
    totals.entropy += result.entropy * share;
    totals.mismatchKl += (result.mismatchKl ?? 0) * share;
    totals.maskedShare += result.maskedShare * share;
  }
  const forwardBackwardMs = performance.now() - started;
  const optimStarted = performance.now();
  const optim = await trainer.optimStep(options.adam);
  return {
    ...totals,
    gradNorm: optim.gradNorm,
    learningRate: optim.learningRate,
    trainedTokens: N,
    microBatches,
    forwardBackwardMs,
    optimMs: performance.now() - optimStarted,
  };
}

function sampled(item: BatchItem): number {
  let n = 0;
  for (const m of item.mask) n += m;
  return n;
}
