/**
 * On-policy distillation (prime-rl's `opd`, [algo] type = "opd"): the student samples its own
 * rollouts, a frozen teacher scores every token of each training sequence, and each sampled token
 * is credited with how much more the teacher likes it than the student did:
 *
 *   A_t = kl_coef × (log π_teacher(x_t) − log π_sampler(x_t)) + reward_weight × A_grpo
 *
 * log π_sampler − log π_teacher at a token the student sampled is the one-sample estimate of the
 * reverse KL from the student to the teacher, so with the loss's −r·A per token (train-step.ts) the
 * policy gradient descends that KL on the student's own samples. prime-rl computes the same signal
 * in its trainer (the ref_kl loss); here it rides on the per-token advantages every BatchItem
 * already carries, so the trainer protocol and its losses are unchanged.
 */
import type { BatchItem } from "@vf-rl/engine";
import type { CollectedBatch } from "../rollouts/collect-batch.ts";

/** The weights of the two terms. */
export interface DistillWeights {
  /** Weight of teacher − sampler logprob. */
  klCoef: number;
  /** Weight of the GRPO advantage the item carries. */
  rewardWeight: number;
}

/** What the teacher said about a batch, for its step's report. */
export interface TeacherReport {
  /**
   * Mean over the batch's sampled tokens of sampler − teacher logprob: the estimate of the reverse
   * KL from the student to the teacher, which falls as the student comes to sample like it.
   */
  kl: number;
  /** Sampled tokens scored. */
  tokens: number;
  /** Milliseconds the teacher took to score the batch. */
  ms: number;
}

/**
 * `item` with the distilled advantage at each sampled token (mask 1), given the teacher's logprob
 * of each of its tokens (`teacher_T`, one per token); other positions keep 0.
 */
export function distillItem(
  item: BatchItem,
  teacher_T: readonly number[],
  weights: DistillWeights,
): BatchItem {
  const sampler_T = item.samplerLogprobs ?? [];
  const grpo_T = item.advantages ?? [];
  return {
    ...item,
    advantages: item.mask.map((m, t) =>
      m === 1
        ? weights.klCoef * (teacher_T[t]! - sampler_T[t]!) + weights.rewardWeight * (grpo_T[t] ?? 0)
        : 0,
    ),
  };
}

/** Options of `distillBatch`. */
export interface DistillBatchOptions extends DistillWeights {
  /** The teacher's logprob of each token of a sequence (entry 0 unused): TeacherScorer.score. */
  score: (tokens_T: readonly number[]) => Promise<number[]>;
  /** Sequences scored at once (default 8). */
  maxConcurrent?: number;
}

/**
 * Scores each training sequence of `batch` once with the teacher and returns the batch with every
 * item's advantages distilled and the teacher's report in `teacher`.
 */
export async function distillBatch(
  batch: CollectedBatch,
  options: DistillBatchOptions,
): Promise<CollectedBatch> {
  const started = performance.now();
  const items = batch.groups_P.flatMap((g) => g.items_G_D.flat());
  const teacher_D = await mapPooled(items, options.maxConcurrent ?? 8, (item) => options.score(item.tokens));
  let gap = 0;
  let tokens = 0;
  const distilled = new Map<BatchItem, BatchItem>();
  items.forEach((item, d) => {
    const teacher_T = teacher_D[d]!;
    item.mask.forEach((m, t) => {
      if (m !== 1) return;
      gap += item.samplerLogprobs![t]! - teacher_T[t]!;
      tokens += 1;
    });
    distilled.set(item, distillItem(item, teacher_T, options));
  });
  const groups_P = batch.groups_P.map((group) => ({
    ...group,
    items_G_D: group.items_G_D.map((items_D) => items_D.map((item) => distilled.get(item)!)),
  }));
  const teacher = { kl: tokens > 0 ? gap / tokens : 0, tokens, ms: performance.now() - started };
  return { ...batch, groups_P, teacher };
}

/** `f` over `values`, at most `limit` at once, results in order. */
async function mapPooled<T, R>(
  values: readonly T[],
  limit: number,
  f: (value: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(values.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < values.length) {
      const i = next++;
      results[i] = await f(values[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, values.length) }, worker));
  return results;
}
