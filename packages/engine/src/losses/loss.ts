/**
 * Token losses on the logits of the trained rows: their value, their gradient with respect to the
 * logits, and the diagnostics every RL step reports (entropy, mismatch KL, masked share).
 *
 * Per trained token, with z = logits / τ, logp = z[target] − logsumexp(z) and p = softmax(z):
 *   cross_entropy               ℓ = −logp
 *   importance_sampling         ℓ = −r·A, r = exp(logp − logp_sampler)
 *   masked_importance_sampling  ℓ = −r·A if maskLow ≤ r ≤ maskHigh, else 0 (and no gradient)
 * and dℓ/dz = dℓ/dlogp · (onehot(target) − p), dℓ/dlogits = dℓ/dz / τ. The batch loss is
 * Σℓ / (number of trained tokens): dropped tokens count in the denominator, as in prime-rl.
 */
import { EngineError } from "../errors.ts";
import type { Floats } from "../floats.ts";
import type { Loss } from "../trainer/protocol.ts";

/** What each output row is trained towards. */
export interface LossTargets {
  tokens: Int32Array; // (M) the token each row predicts
  samplerLogprobs: Float64Array | null; // (M) required by the policy-gradient losses
  advantages: Float64Array | null; // (M) required by the policy-gradient losses
}

/** Sums over rows, so shards of a batch can be added before dividing by the token count. */
export interface LossSums {
  loss: number; // Σ ℓ
  entropy: number; // Σ entropy
  mismatchKl: number; // Σ (r − log r − 1), when sampler logprobs are given
  masked: number; // tokens dropped by the ratio band
  tokens: number; // rows
}

/**
 * Evaluates `loss` on logits (M, V). When `dlogits` (M, V) is given (it may be `logits` itself) it
 * receives `scale` · dℓ/dlogits, scale being 1 / (trained tokens of the whole batch). `logprobs` (M)
 * receives each row's logp of its target at temperature τ.
 */
export function evaluateLoss(
  loss: Loss,
  logits: Floats,
  targets: LossTargets,
  M: number,
  V: number,
  scale: number,
  dlogits: Floats | null,
  logprobs: Float64Array,
): LossSums {
  const sums: LossSums = { loss: 0, entropy: 0, mismatchKl: 0, masked: 0, tokens: M };
  const tau = loss.type === "cross_entropy" ? 1 : loss.temperature;
  const sampler = targets.samplerLogprobs;
  const advantages = targets.advantages;
  if (loss.type !== "cross_entropy" && (sampler === null || advantages === null)) {
    throw new EngineError(
      `the ${loss.type} loss needs samplerLogprobs and advantages on every batch item: add them, or use cross_entropy`,
    );
  }
  for (let m = 0; m < M; m++) {
    const o = m * V;
    const target = targets.tokens[m]!;
    // log-softmax at temperature τ, in double precision; exp(z − max) is kept in dlogits for the gradient
    const logit = logits[o + target]!;
    let max = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < V; i++) max = Math.max(max, logits[o + i]! / tau);
    let sumExp = 0;
    let sumExpZ = 0;
    for (let i = 0; i < V; i++) {
      const z = logits[o + i]! / tau;
      const e = Math.exp(z - max);
      sumExp += e;
      sumExpZ += e * z;
      if (dlogits !== null) dlogits[o + i] = e; // may overwrite logits[o + i]: it is read above
    }
    const lse = max + Math.log(sumExp);
    const logp = logit / tau - lse;
    logprobs[m] = logp;
    sums.entropy += lse - sumExpZ / sumExp;

    // dℓ/dlogp of this row
    let coef: number;
    if (loss.type === "cross_entropy") {
      coef = -1;
      sums.loss -= logp;
    } else {
      const logRatio = logp - sampler![m]!;
      const ratio = Math.exp(logRatio);
      const dropped =
        loss.type === "masked_importance_sampling" && (ratio < loss.maskLow || ratio > loss.maskHigh);
      if (dropped) {
        coef = 0;
        sums.masked += 1;
      } else {
        coef = -ratio * advantages![m]!;
        sums.loss += coef;
      }
    }
    if (sampler !== null) sums.mismatchKl += Math.exp(logp - sampler[m]!) - (logp - sampler[m]!) - 1;

    if (dlogits !== null) {
      // dℓ/dlogits_i = scale · coef · (onehot_i − p_i) / τ, with p_i = exp(z_i − max) / Σ
      const k = (coef * scale) / tau;
      const invSum = 1 / sumExp;
      for (let i = 0; i < V; i++) dlogits[o + i] = k * ((i === target ? 1 : 0) - dlogits[o + i]! * invSum);
    }
  }
  return sums;
}
