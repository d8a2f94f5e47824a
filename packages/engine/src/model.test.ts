/**
 * Gradient check: the hand-written backward pass against central finite differences, for every
 * tensor of the model (embedding, norms, q/k/v/o, MLP) and every loss, in float64.
 */
import { describe, expect, it } from "vitest";
import { parseModelConfig } from "./config.ts";
import { evaluateLoss } from "./losses/loss.ts";
import { Transformer } from "./model.ts";
import { initParameters, tensorSpecs } from "./params.ts";
import { Rng } from "./rng.ts";
import { countTrainedTokens, packTrainingBatch } from "./trainer/pack-batch.ts";
import { type BatchItem, Loss, type LossInput } from "./trainer/protocol.ts";

const config = parseModelConfig({ vocabSize: 11, dModel: 8, nLayers: 2, nHeads: 2, dFF: 12, maxSeqLen: 8 });

/** A float64 model with weights large enough that every nonlinearity matters. */
function tinyModel(): Transformer {
  const model = new Transformer(config, { dtype: "f64" });
  initParameters(config, model.params, 1);
  const rng = new Rng(2);
  for (const spec of tensorSpecs(config)) {
    for (let i = spec.offset; i < spec.offset + spec.size; i++) {
      model.params[i] = spec.kind === "norm" ? 1 + 0.3 * rng.normal() : model.params[i]! * 15;
    }
  }
  return model;
}

const batch: BatchItem[] = [
  { tokens: [1, 4, 2, 9, 3], mask: [0, 0, 1, 1, 1] },
  { tokens: [5, 0, 7, 7, 10, 2, 6], mask: [0, 1, 1, 0, 1, 1, 1] },
];

function withSampler(items: BatchItem[], offsets: number[]): BatchItem[] {
  let k = 0;
  return items.map((item) => ({
    ...item,
    // the sampler logprob is a made-up value around -2; the offsets decide which tokens leave the band
    samplerLogprobs: item.tokens.map((_, t) => (item.mask[t] ? -2 + offsets[k++ % offsets.length]! : 0)),
    advantages: item.tokens.map((_, t) => (item.mask[t] ? 0.5 - ((t * 7) % 3) * 0.4 : 0)),
  }));
}

/** The loss value, and optionally its gradient accumulated into model.grads. */
function run(model: Transformer, items: BatchItem[], lossInput: LossInput, withGrad: boolean): number {
  const loss = Loss.parse(lossInput);
  const tb = packTrainingBatch(items);
  const M = tb.packed.outputRows.length;
  const logits = model.forward(tb.packed);
  const scale = 1 / countTrainedTokens(items);
  const dlogits = withGrad ? new Float64Array(M * config.vocabSize) : null;
  const sums = evaluateLoss(
    loss,
    logits,
    tb.targets,
    M,
    config.vocabSize,
    scale,
    dlogits,
    new Float64Array(M),
  );
  if (dlogits !== null) model.backward(tb.packed, dlogits);
  return sums.loss * scale;
}

/** Largest relative error (floored for near-zero entries) between the analytic and numeric gradient over every entry of `name`. */
function checkTensor(model: Transformer, items: BatchItem[], loss: LossInput, name: string): number {
  const spec = tensorSpecs(config).find((s) => s.name === name)!;
  const eps = 1e-5;
  let worst = 0;
  for (let i = spec.offset; i < spec.offset + spec.size; i++) {
    const saved = model.params[i]!;
    model.params[i] = saved + eps;
    const up = run(model, items, loss, false);
    model.params[i] = saved - eps;
    const down = run(model, items, loss, false);
    model.params[i] = saved;
    const numeric = (up - down) / (2 * eps);
    const analytic = model.grads[i]!;
    const err = Math.abs(analytic - numeric) / (Math.abs(analytic) + Math.abs(numeric) + 1e-4);
    worst = Math.max(worst, err);
  }
  return worst;
}

const tensors = tensorSpecs(config).map((s) => s.name); // every tensor, both layers

const losses: [string, BatchItem[], LossInput][] = [
  ["cross_entropy", batch, { type: "cross_entropy" }],
  [
    "importance_sampling",
    withSampler(batch, [0.1, -0.3, 0.4]),
    { type: "importance_sampling", temperature: 0.7 },
  ],
  [
    "masked_importance_sampling",
    // offsets of +5 and -4 put r far outside [0.125, 8]: those tokens are dropped
    withSampler(batch, [0.1, 5, -0.3, -4, 0.2]),
    { type: "masked_importance_sampling" },
  ],
];

describe.each(losses)("the gradient of %s", (_, items, loss) => {
  const model = tinyModel();
  model.zeroGrad();
  run(model, items, loss, true);

  it.each(tensors)("matches finite differences for %s", (name) => {
    expect(checkTensor(model, items, loss, name)).toBeLessThan(1e-6);
  });
});

describe("trained and untrained tokens", () => {
  it("gives untrained tokens (mask 0) exactly zero gradient: changing their targets changes nothing", () => {
    const items = withSampler(batch, [0.1, -0.3]);
    const a = tinyModel();
    a.zeroGrad();
    run(a, items, { type: "importance_sampling" }, true);
    // same inputs, but the advantages and sampler logprobs of every untrained token are changed
    const changed = items.map((item) => ({
      ...item,
      advantages: item.advantages!.map((v, t) => (item.mask[t] ? v : 123)),
      samplerLogprobs: item.samplerLogprobs!.map((v, t) => (item.mask[t] ? v : -50)),
    }));
    const b = tinyModel();
    b.zeroGrad();
    run(b, changed, { type: "importance_sampling" }, true);
    expect(Array.from(b.grads)).toEqual(Array.from(a.grads));
  });

  it("gives a batch with no trained token a gradient of exactly zero", () => {
    const model = tinyModel();
    model.zeroGrad();
    const loss = run(model, [{ tokens: [1, 2, 3, 4], mask: [0, 0, 0, 0] }], { type: "cross_entropy" }, true);
    expect(Number.isNaN(loss)).toBe(true); // 0 / 0 tokens: the trainer reports 0 instead (see local-trainer)
    expect(model.grads.every((g) => g === 0)).toBe(true);
  });

  it("gives tokens dropped by the masked loss no gradient: their advantage does not matter", () => {
    const items = withSampler(batch, [5]); // every token dropped: r = exp(-5) < 0.125
    const model = tinyModel();
    model.zeroGrad();
    run(model, items, { type: "masked_importance_sampling" }, true);
    expect(model.grads.every((g) => g === 0)).toBe(true);
  });
});
