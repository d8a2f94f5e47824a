/**
 * From protocol batch items to the model's packed batch: each item's tokens but the last become
 * rows (the last token is only ever a target), and each trained token becomes an output row whose
 * logits predict it. Untrained tokens get no output row at all, so they cannot receive gradient.
 */
import type { ModelConfig } from "../config.ts";
import { BatchError } from "../errors.ts";
import type { LossTargets } from "../losses/loss.ts";
import type { PackedBatch } from "../packed-batch.ts";
import type { BatchItem, Loss } from "./protocol.ts";

/** A packed batch with its loss targets and where each output row's logprob belongs. */
export interface TrainingBatch {
  packed: PackedBatch;
  targets: LossTargets;
  /** For output row m: the item (within this batch) and the token position it predicts. */
  rowItem: Int32Array; // (M)
  rowPosition: Int32Array; // (M)
}

/** Checks every item against the model and the loss; throws BatchError naming the item and field. */
export function validateBatch(items: readonly BatchItem[], config: ModelConfig, loss: Loss): void {
  const needsSampler = loss.type !== "cross_entropy";
  items.forEach((item, i) => {
    const T = item.tokens.length;
    const sameLength = (
      field: "mask" | "samplerLogprobs" | "advantages",
      values: readonly number[],
    ): void => {
      if (values.length !== T) {
        throw new BatchError(
          `batch item ${i}: ${field} has ${values.length} entries but tokens has ${T}: give one value per token`,
          i,
          field,
        );
      }
      for (const v of values) {
        if (!Number.isFinite(v)) {
          throw new BatchError(
            `batch item ${i}: ${field} holds ${v}: every value must be a finite number`,
            i,
            field,
          );
        }
      }
    };
    sameLength("mask", item.mask);
    if (item.mask[0] === 1) {
      throw new BatchError(
        `batch item ${i}: mask[0] is 1 but the first token has no context to be predicted from: set mask[0] to 0`,
        i,
        "mask",
      );
    }
    if (T - 1 > config.maxSeqLen) {
      throw new BatchError(
        `batch item ${i}: ${T} tokens need ${T - 1} positions but the model's context is ${config.maxSeqLen}: ` +
          `truncate the item to ${config.maxSeqLen + 1} tokens`,
        i,
        "tokens",
      );
    }
    for (const token of item.tokens) {
      if (token >= config.vocabSize) {
        throw new BatchError(
          `batch item ${i}: token id ${token} is outside the vocabulary of ${config.vocabSize}: ` +
            "encode text with this model's tokenizer",
          i,
          "tokens",
        );
      }
    }
    for (const field of ["samplerLogprobs", "advantages"] as const) {
      const values = item[field];
      if (values !== undefined) sameLength(field, values);
      else if (needsSampler) {
        throw new BatchError(
          `batch item ${i}: the ${loss.type} loss needs ${field}: add them (0 where mask is 0), or use cross_entropy`,
          i,
          field,
        );
      }
    }
  });
}

/** Number of trained tokens (mask 1) over the items. */
export function countTrainedTokens(items: readonly BatchItem[]): number {
  let count = 0;
  for (const item of items) for (const m of item.mask) count += m;
  return count;
}

/** Packs validated items; the sampler arrays are filled only when every item has them. */
export function packTrainingBatch(items: readonly BatchItem[]): TrainingBatch {
  let N = 0;
  let M = 0;
  let S = 0;
  for (const item of items) {
    const T = item.tokens.length;
    if (T < 2) continue;
    N += T - 1;
    S += 1;
    for (let t = 1; t < T; t++) M += item.mask[t]!;
  }
  const hasSampler = items.every((i) => i.samplerLogprobs !== undefined && i.advantages !== undefined);
  const packed: PackedBatch = {
    tokens: new Int32Array(N),
    positions: new Int32Array(N),
    seqStarts: new Int32Array(S),
    seqLens: new Int32Array(S),
    outputRows: new Int32Array(M),
  };
  const targets: LossTargets = {
    tokens: new Int32Array(M),
    samplerLogprobs: hasSampler ? new Float64Array(M) : null,
    advantages: hasSampler ? new Float64Array(M) : null,
  };
  const rowItem = new Int32Array(M);
  const rowPosition = new Int32Array(M);
  let row = 0;
  let s = 0;
  let m = 0;
  items.forEach((item, i) => {
    const T = item.tokens.length;
    if (T < 2) return;
    packed.seqStarts[s] = row;
    packed.seqLens[s] = T - 1;
    s += 1;
    for (let t = 0; t < T - 1; t++) {
      packed.tokens[row + t] = item.tokens[t]!;
      packed.positions[row + t] = t;
    }
    for (let t = 1; t < T; t++) {
      if (item.mask[t] !== 1) continue;
      packed.outputRows[m] = row + t - 1; // the row reading tokens[t-1] predicts tokens[t]
      targets.tokens[m] = item.tokens[t]!;
      if (hasSampler) {
        targets.samplerLogprobs![m] = item.samplerLogprobs![t]!;
        targets.advantages![m] = item.advantages![t]!;
      }
      rowItem[m] = i;
      rowPosition[m] = t;
      m += 1;
    }
    row += T - 1;
  });
  return { packed, targets, rowItem, rowPosition };
}

/**
 * Splits items into `shards` contiguous groups of about equal token count (for worker threads).
 * Returns the start index of each group and the end; depends only on the lengths, so it is deterministic.
 */
export function splitItems(items: readonly BatchItem[], shards: number): number[] {
  const total = items.reduce((n, item) => n + item.tokens.length, 0);
  const bounds = [0];
  let seen = 0;
  for (let i = 0; i < items.length && bounds.length < shards; i++) {
    seen += items[i]!.tokens.length;
    if (seen >= (total * bounds.length) / shards) bounds.push(i + 1);
  }
  while (bounds.length < shards) bounds.push(items.length);
  bounds.push(items.length);
  return bounds;
}
