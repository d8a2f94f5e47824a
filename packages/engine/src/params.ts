/**
 * The parameter layout: every tensor's PyTorch-style name, shape and place in one flat buffer, the
 * views the model computes on, and the seeded initialisation. Gradients and optimizer moments use
 * the same layout, so an optimizer works on flat buffers and a checkpoint is a list of views.
 *
 * wq, wk and wv sit next to each other, so together they are one (3C, C) matrix and the model
 * computes q, k and v with one matmul; w1 (gate) and w3 (up) likewise form one (2F, C) matrix.
 */
import type { ModelConfig } from "./config.ts";
import type { Floats } from "./floats.ts";
import { Rng } from "./rng.ts";

/** How a tensor is initialised and whether weight decay applies to it. */
export type TensorKind =
  /** The token embedding, tied with the output head: N(0, 0.02), decayed. */
  | "embedding"
  /** RMSNorm gains: ones, never decayed. */
  | "norm"
  /** A linear layer reading the residual stream: N(0, 0.02), decayed. */
  | "linear"
  /** A linear layer writing into the residual stream (wo, w2): N(0, 0.02 / sqrt(2L)), decayed. */
  | "projection";

/** One named tensor of the model. */
export interface TensorSpec {
  /** PyTorch-style name, e.g. `layers.0.attn.wq.weight`. */
  readonly name: string;
  /** Row-major shape; a linear layer's weight is (out, in) as in `torch.nn.Linear`. */
  readonly shape: readonly number[];
  /** Number of elements. */
  readonly size: number;
  /** Index of the first element in the flat buffer. */
  readonly offset: number;
  readonly kind: TensorKind;
}

/** Every tensor of a model with this config, in model order (the order of the flat buffer). */
export function tensorSpecs(config: ModelConfig): TensorSpec[] {
  const { vocabSize: V, dModel: C, dFF: F, nLayers: L } = config;
  const specs: TensorSpec[] = [];
  let offset = 0;
  const add = (name: string, shape: number[], kind: TensorKind): void => {
    const size = shape.reduce((a, b) => a * b, 1);
    specs.push({ name, shape, size, offset, kind });
    offset += size;
  };
  add("tok_emb.weight", [V, C], "embedding");
  for (let l = 0; l < L; l++) {
    add(`layers.${l}.attn_norm.weight`, [C], "norm");
    add(`layers.${l}.attn.wq.weight`, [C, C], "linear");
    add(`layers.${l}.attn.wk.weight`, [C, C], "linear");
    add(`layers.${l}.attn.wv.weight`, [C, C], "linear");
    add(`layers.${l}.attn.wo.weight`, [C, C], "projection");
    add(`layers.${l}.mlp_norm.weight`, [C], "norm");
    add(`layers.${l}.mlp.w1.weight`, [F, C], "linear");
    add(`layers.${l}.mlp.w3.weight`, [F, C], "linear");
    add(`layers.${l}.mlp.w2.weight`, [C, F], "projection");
  }
  add("norm.weight", [C], "norm");
  return specs;
}

/** Total number of parameters, P. */
export function parameterCount(config: ModelConfig): number {
  const last = tensorSpecs(config).at(-1)!;
  return last.offset + last.size;
}

/** Every tensor by its PyTorch-style name, as a view into `data` (writing a view writes the buffer). */
export function namedTensors(config: ModelConfig, data: Floats): Map<string, Floats> {
  return new Map(
    tensorSpecs(config).map((spec) => [spec.name, data.subarray(spec.offset, spec.offset + spec.size)]),
  );
}

/** The tensors of one transformer block, as views into a flat buffer. */
export interface LayerTensors {
  attnNorm: Floats; // (C)
  wqkv: Floats; // (3C, C): wq, wk, wv stacked
  wo: Floats; // (C, C)
  mlpNorm: Floats; // (C)
  w13: Floats; // (2F, C): w1 (gate) then w3 (up)
  w2: Floats; // (C, F)
}

/** All tensors of a model as views into one flat buffer (parameters or their gradients). */
export interface ModelTensors {
  tokEmb: Floats; // (V, C)
  layers: LayerTensors[];
  norm: Floats; // (C)
}

/** Views of every tensor into `data`, a flat buffer of `parameterCount(config)` floats. */
export function tensorViews(config: ModelConfig, data: Floats): ModelTensors {
  const { vocabSize: V, dModel: C, dFF: F } = config;
  let offset = 0;
  const take = (size: number): Floats => {
    const view = data.subarray(offset, offset + size);
    offset += size;
    return view;
  };
  const tokEmb = take(V * C);
  const layers: LayerTensors[] = [];
  for (let l = 0; l < config.nLayers; l++) {
    const attnNorm = take(C);
    const wqkv = take(3 * C * C);
    const wo = take(C * C);
    const mlpNorm = take(C);
    const w13 = take(2 * F * C);
    const w2 = take(C * F);
    layers.push({ attnNorm, wqkv, wo, mlpNorm, w13, w2 });
  }
  const norm = take(C);
  return { tokEmb, layers, norm };
}

/** Fills `data` with a fresh initialisation; the same seed gives the same weights, bit for bit. */
export function initParameters(config: ModelConfig, data: Floats, seed: number): void {
  const rng = new Rng(seed);
  const std = 0.02;
  const projectionStd = std / Math.sqrt(2 * config.nLayers);
  for (const spec of tensorSpecs(config)) {
    const view = data.subarray(spec.offset, spec.offset + spec.size);
    if (spec.kind === "norm") {
      view.fill(1);
      continue;
    }
    const s = spec.kind === "projection" ? projectionStd : std;
    for (let i = 0; i < view.length; i++) view[i] = rng.normal() * s;
  }
}
