/**
 * One forward (and backward) pass over a shard of a batch: what the in-process trainer runs on the
 * whole batch, and what each worker thread runs on its part of it.
 */
import { evaluateLoss, type LossSums } from "../losses/loss.ts";
import type { Transformer } from "../model.ts";
import { packTrainingBatch } from "./pack-batch.ts";
import type { BatchItem, Loss } from "./protocol.ts";

/** The loss sums of a shard and each trained token's logprob, with its item and position. */
export interface ShardResult {
  sums: LossSums;
  logprobs: Float64Array; // (M)
  rowItem: Int32Array; // (M) index of the item within the shard
  rowPosition: Int32Array; // (M)
  hasSampler: boolean;
}

/**
 * Runs validated `items` through `model`; with `withGrad`, accumulates the gradient into
 * model.grads. `scale` is 1 / (trained tokens of the whole batch), so shards add up to the mean.
 */
export function runShard(
  model: Transformer,
  items: readonly BatchItem[],
  loss: Loss,
  withGrad: boolean,
  scale: number,
): ShardResult {
  const tb = packTrainingBatch(items);
  const M = tb.packed.outputRows.length;
  const logits = model.forward(tb.packed);
  const logprobs = new Float64Array(M);
  // the loss writes dlogits over the logits in place: they are not needed afterwards
  const dlogits = withGrad ? logits : null;
  const sums = evaluateLoss(loss, logits, tb.targets, M, model.config.vocabSize, scale, dlogits, logprobs);
  if (withGrad && M > 0) model.backward(tb.packed, logits);
  return {
    sums,
    logprobs,
    rowItem: tb.rowItem,
    rowPosition: tb.rowPosition,
    hasSampler: tb.targets.samplerLogprobs !== null,
  };
}
