/**
 * The model: a decoder-only transformer with its forward and backward pass written by hand, layer by
 * layer in model order, each layer's backward right after its forward (after llm.c's train_gpt2.c).
 *
 *   tokens → embedding → L × [ RMSNorm → q,k,v → rotary → causal attention → wo → + residual
 *                              RMSNorm → w1,w3 → SwiGLU → w2 → + residual ]
 *          → final RMSNorm → logits = h · tok_embᵀ (the embedding is tied with the output head)
 *
 * A batch is packed: the tokens of all sequences are laid end to end as the rows of one matrix, so
 * sequences of different lengths cost no padding. Only attention and rotary positions look at
 * sequence boundaries; everything else works row by row.
 *
 * Legend of dimensions (the shape comment on every buffer uses these):
 *   N  rows of a packed batch (input tokens of all sequences, end to end)
 *   S  sequences; sequence s owns rows seqStarts[s] .. seqStarts[s] + T - 1, T = seqLens[s]
 *   M  output rows: the rows whose next-token logits are wanted
 *   C  channels (dModel)    H  heads    D = C/H head size    F  MLP width (dFF)
 *   V  vocabulary           L  layers   P  parameters
 */
import type { ModelConfig } from "./config.ts";
import { EngineError } from "./errors.ts";
import { allocFloats, type DType, dtypeOf, type Floats } from "./floats.ts";
import { matmul } from "./kernels/matmul.ts";
import { type ModelTensors, parameterCount, tensorViews } from "./params.ts";

// ---------------------------------------------------------------------------------------------
// Encoder: token embedding

/** out (N, C) = tokEmb[tokens]. */
export function encoderForward(out: Floats, tokens: Int32Array, tokEmb: Floats, N: number, C: number): void {
  for (let n = 0; n < N; n++) {
    const src = tokens[n]! * C;
    out.set(tokEmb.subarray(src, src + C), n * C);
  }
}

/** dTokEmb[tokens] += dout (N, C). */
export function encoderBackward(
  dTokEmb: Floats,
  dout: Floats,
  tokens: Int32Array,
  N: number,
  C: number,
): void {
  for (let n = 0; n < N; n++) {
    const dst = tokens[n]! * C;
    const src = n * C;
    for (let i = 0; i < C; i++) dTokEmb[dst + i] += dout[src + i]!;
  }
}

// ---------------------------------------------------------------------------------------------
// RMSNorm: y = x · rstd · w, rstd = 1 / sqrt(mean(x²) + eps)

/** out (N, C), rstd (N) from inp (N, C) and weight (C). */
export function rmsnormForward(
  out: Floats,
  rstd: Floats,
  inp: Floats,
  weight: Floats,
  N: number,
  C: number,
  eps: number,
): void {
  for (let n = 0; n < N; n++) {
    const o = n * C;
    let ss = 0;
    for (let i = 0; i < C; i++) ss += inp[o + i]! * inp[o + i]!;
    const r = 1 / Math.sqrt(ss / C + eps);
    rstd[n] = r;
    for (let i = 0; i < C; i++) out[o + i] = inp[o + i]! * r * weight[i]!;
  }
}

/** dinp (N, C) += and dweight (C) += from dout (N, C), with the forward's inp and rstd. */
export function rmsnormBackward(
  dinp: Floats,
  dweight: Floats,
  dout: Floats,
  inp: Floats,
  weight: Floats,
  rstd: Floats,
  N: number,
  C: number,
): void {
  for (let n = 0; n < N; n++) {
    const o = n * C;
    const r = rstd[n]!;
    // dL/dx_j = r·w_j·dy_j − r³·x_j/C · Σ_i dy_i·w_i·x_i
    let dot = 0;
    for (let i = 0; i < C; i++) dot += dout[o + i]! * weight[i]! * inp[o + i]!;
    const k = (r * r * r * dot) / C;
    for (let i = 0; i < C; i++) {
      const dy = dout[o + i]!;
      const x = inp[o + i]!;
      dweight[i] += dy * x * r;
      dinp[o + i] += r * weight[i]! * dy - k * x;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Linear layer without bias: out = inp · Wᵀ, W stored (OC, IC) as torch.nn.Linear

/** out (N, OC) = inp (N, IC) · weight (OC, IC)ᵀ, or out += when `accumulate` (a residual add). */
export function linearForward(
  out: Floats,
  inp: Floats,
  weight: Floats,
  N: number,
  IC: number,
  OC: number,
  accumulate = false,
): void {
  matmul(out, inp, weight, N, OC, IC, false, true, accumulate);
}

/** dinp (N, IC) = dout (N, OC) · weight (OC, IC), and dweight (OC, IC) += doutᵀ · inp (N, IC). */
export function linearBackward(
  dinp: Floats,
  dweight: Floats,
  dout: Floats,
  inp: Floats,
  weight: Floats,
  N: number,
  IC: number,
  OC: number,
): void {
  matmul(dinp, dout, weight, N, IC, OC, false, false, false);
  matmul(dweight, dout, inp, OC, IC, N, true, false, true);
}

// ---------------------------------------------------------------------------------------------
// Rotary position embedding: each head's pairs (i, i + D/2) are rotated by pos · θ^(-2i/D)

/** The rotation table: cos and sin, each (maxSeqLen, D/2). */
export interface RopeTable {
  cos: Floats;
  sin: Floats;
}

/** cos and sin of pos · θ^(-2i/D) for every position and pair, computed in double precision. */
export function ropeTable(config: ModelConfig, dtype: DType): RopeTable {
  const half = config.dModel / config.nHeads / 2;
  const cos = allocFloats(dtype, config.maxSeqLen * half);
  const sin = allocFloats(dtype, config.maxSeqLen * half);
  for (let p = 0; p < config.maxSeqLen; p++) {
    for (let i = 0; i < half; i++) {
      const angle = p * config.ropeTheta ** (-i / half);
      cos[p * half + i] = Math.cos(angle);
      sin[p * half + i] = Math.sin(angle);
    }
  }
  return { cos, sin };
}

/**
 * Rotates q and k of every row of qkv (N, 3C) in place by the row's position; `direction` -1
 * applies the inverse rotation, which is the backward pass of a rotation (its transpose).
 */
export function ropeApply(
  qkv: Floats,
  positions: Int32Array,
  N: number,
  C: number,
  H: number,
  rope: RopeTable,
  direction: 1 | -1,
): void {
  const D = C / H;
  const half = D / 2;
  for (let n = 0; n < N; n++) {
    const t = positions[n]! * half;
    for (let part = 0; part < 2 * C; part += C) {
      // part 0 is q, part C is k; v (part 2C) is not rotated
      for (let h = 0; h < H; h++) {
        const o = n * 3 * C + part + h * D;
        for (let i = 0; i < half; i++) {
          const c = rope.cos[t + i]!;
          const s = direction * rope.sin[t + i]!;
          const a = qkv[o + i]!;
          const b = qkv[o + i + half]!;
          qkv[o + i] = a * c - b * s;
          qkv[o + i + half] = b * c + a * s;
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Causal multi-head attention: softmax(q·kᵀ / sqrt(D)) · v over keys 0..t
//
// Computed per sequence and head as matrix products on contiguous copies of the head's q, k, v
// (T, D), so it runs on the SIMD kernels: P = softmax(Q·Kᵀ) (T, T), out = P·V. The backward pass
// recomputes P rather than keeping it, so memory grows with T, not T² per head and sequence.
// Sampling computes each new row the same way against its KV cache (cached-forward.ts), with the
// same kernels and the same softmaxRow, so its logits equal the training forward's bit for bit.

/** row[off .. off+n) = softmax(scale · row[off .. off+n)), in place. */
export function softmaxRow(row: Floats, off: number, n: number, scale: number): void {
  let max = Number.NEGATIVE_INFINITY;
  for (let j = 0; j < n; j++) {
    const v = row[off + j]! * scale;
    row[off + j] = v;
    if (v > max) max = v;
  }
  let sum = 0;
  for (let j = 0; j < n; j++) {
    const e = Math.exp(row[off + j]! - max);
    row[off + j] = e;
    sum += e;
  }
  const inv = 1 / sum;
  for (let j = 0; j < n; j++) row[off + j] = row[off + j]! * inv;
}

/** out (T, D) = the D columns from `col` of rows start .. start+T-1 of inp (rows of `stride`). */
function gatherHead(
  out: Floats,
  inp: Floats,
  start: number,
  T: number,
  stride: number,
  col: number,
  D: number,
): void {
  for (let t = 0; t < T; t++) {
    const src = (start + t) * stride + col;
    for (let d = 0; d < D; d++) out[t * D + d] = inp[src + d]!;
  }
}

/** The inverse of gatherHead: writes inp (T, D) into those columns of out. */
function scatterHead(
  out: Floats,
  inp: Floats,
  start: number,
  T: number,
  stride: number,
  col: number,
  D: number,
): void {
  for (let t = 0; t < T; t++) {
    const dst = (start + t) * stride + col;
    for (let d = 0; d < D; d++) out[dst + d] = inp[t * D + d]!;
  }
}

/** Per-head scratch of attention, for sequences up to maxSeqLen. */
export interface AttentionScratch {
  qh: Floats; // (T, D)
  kh: Floats; // (T, D)
  vh: Floats; // (T, D)
  oh: Floats; // (T, D) output, or its gradient in the backward pass
  dqh: Floats; // (T, D)
  dkh: Floats; // (T, D)
  dvh: Floats; // (T, D)
  p: Floats; // (T, T) probabilities, zero above the diagonal
  ds: Floats; // (T, T) gradient of the scores
}

/** Attention scratch for sequences up to the model's maxSeqLen. */
export function attentionScratch(config: ModelConfig, dtype: DType): AttentionScratch {
  const T = config.maxSeqLen;
  const D = config.dModel / config.nHeads;
  const f = (n: number): Floats => allocFloats(dtype, n);
  return {
    qh: f(T * D),
    kh: f(T * D),
    vh: f(T * D),
    oh: f(T * D),
    dqh: f(T * D),
    dkh: f(T * D),
    dvh: f(T * D),
    p: f(T * T),
    ds: f(T * T),
  };
}

/** sc.p (T, T) = softmax(scale · Q·Kᵀ) of the head in sc.qh, sc.kh, with zeros above the diagonal. */
function attentionProbs(sc: AttentionScratch, T: number, D: number): void {
  const scale = 1 / Math.sqrt(D);
  matmul(sc.p, sc.qh, sc.kh, T, T, D, false, true, false); // scores q_t · k_j
  for (let t = 0; t < T; t++) {
    softmaxRow(sc.p, t * T, t + 1, scale);
    sc.p.fill(0, t * T + t + 1, (t + 1) * T); // causal: no weight on later keys
  }
}

/** out (N, C) from qkv (N, 3C) whose q and k are rotated. */
export function attentionForward(
  out: Floats,
  qkv: Floats,
  batch: PackedBatch,
  C: number,
  H: number,
  sc: AttentionScratch,
): void {
  const D = C / H;
  for (let s = 0; s < batch.seqStarts.length; s++) {
    const start = batch.seqStarts[s]!;
    const T = batch.seqLens[s]!;
    for (let h = 0; h < H; h++) {
      gatherHead(sc.qh, qkv, start, T, 3 * C, h * D, D);
      gatherHead(sc.kh, qkv, start, T, 3 * C, C + h * D, D);
      gatherHead(sc.vh, qkv, start, T, 3 * C, 2 * C + h * D, D);
      attentionProbs(sc, T, D);
      matmul(sc.oh, sc.p, sc.vh, T, D, T, false, false, false);
      scatterHead(out, sc.oh, start, T, C, h * D, D);
    }
  }
}

/** dqkv (N, 3C), overwritten, from dout (N, C): the gradient of q, k (still rotated) and v. */
export function attentionBackward(
  dqkv: Floats,
  dout: Floats,
  qkv: Floats,
  batch: PackedBatch,
  C: number,
  H: number,
  sc: AttentionScratch,
): void {
  const D = C / H;
  const scale = 1 / Math.sqrt(D);
  for (let s = 0; s < batch.seqStarts.length; s++) {
    const start = batch.seqStarts[s]!;
    const T = batch.seqLens[s]!;
    for (let h = 0; h < H; h++) {
      gatherHead(sc.qh, qkv, start, T, 3 * C, h * D, D);
      gatherHead(sc.kh, qkv, start, T, 3 * C, C + h * D, D);
      gatherHead(sc.vh, qkv, start, T, 3 * C, 2 * C + h * D, D);
      gatherHead(sc.oh, dout, start, T, C, h * D, D);
      attentionProbs(sc, T, D); // the forward's P, recomputed bit for bit
      const p = sc.p;
      // through out = P·V: dP = dout·Vᵀ, dV = Pᵀ·dout
      matmul(sc.ds, sc.oh, sc.vh, T, T, D, false, true, false);
      matmul(sc.dvh, p, sc.oh, T, D, T, true, false, false);
      // through the softmax: dS_tj = P_tj·(dP_tj − Σ_j P_tj·dP_tj), times the scale of the scores
      for (let t = 0; t < T; t++) {
        const row = t * T;
        let dot = 0;
        for (let j = 0; j <= t; j++) dot += p[row + j]! * sc.ds[row + j]!;
        for (let j = 0; j <= t; j++) sc.ds[row + j] = p[row + j]! * (sc.ds[row + j]! - dot) * scale;
        sc.ds.fill(0, row + t + 1, row + T);
      }
      // through the scores Q·Kᵀ: dQ = dS·K, dK = dSᵀ·Q
      matmul(sc.dqh, sc.ds, sc.kh, T, D, T, false, false, false);
      matmul(sc.dkh, sc.ds, sc.qh, T, D, T, true, false, false);
      scatterHead(dqkv, sc.dqh, start, T, 3 * C, h * D, D);
      scatterHead(dqkv, sc.dkh, start, T, 3 * C, C + h * D, D);
      scatterHead(dqkv, sc.dvh, start, T, 3 * C, 2 * C + h * D, D);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// SwiGLU: act = silu(gate) · up, silu(g) = g · sigmoid(g)

/** act (N, F) and sig (N, F) = sigmoid(gate), kept for the backward pass, from h13 (N, 2F) whose rows are [gate, up]. */
export function swigluForward(act: Floats, sig: Floats, h13: Floats, N: number, F: number): void {
  for (let n = 0; n < N; n++) {
    const i = n * 2 * F;
    const o = n * F;
    for (let j = 0; j < F; j++) {
      const g = h13[i + j]!;
      const sg = 1 / (1 + Math.exp(-g));
      sig[o + j] = sg;
      act[o + j] = g * sg * h13[i + F + j]!;
    }
  }
}

/** dh13 (N, 2F), overwritten, from dact (N, F). */
export function swigluBackward(
  dh13: Floats,
  dact: Floats,
  h13: Floats,
  sig: Floats,
  N: number,
  F: number,
): void {
  for (let n = 0; n < N; n++) {
    const i = n * 2 * F;
    const o = n * F;
    for (let j = 0; j < F; j++) {
      const g = h13[i + j]!;
      const u = h13[i + F + j]!;
      const sg = sig[o + j]!;
      const da = dact[o + j]!;
      dh13[i + j] = da * u * sg * (1 + g * (1 - sg)); // d silu(g)/dg = σ(g)·(1 + g·(1 − σ(g)))
      dh13[i + F + j] = da * g * sg;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Output rows: gather the rows whose logits are wanted, scatter their gradient back

/** out (M, C) = inp[rows] with inp (N, C). */
export function gatherRows(out: Floats, inp: Floats, rows: Int32Array, C: number): void {
  for (let m = 0; m < rows.length; m++) {
    const src = rows[m]! * C;
    out.set(inp.subarray(src, src + C), m * C);
  }
}

/** dinp[rows] += dout (M, C). */
export function scatterRowsBackward(dinp: Floats, dout: Floats, rows: Int32Array, C: number): void {
  for (let m = 0; m < rows.length; m++) {
    const dst = rows[m]! * C;
    for (let i = 0; i < C; i++) dinp[dst + i] += dout[m * C + i]!;
  }
}

// ---------------------------------------------------------------------------------------------
// The model

/** A packed batch: the input of one forward pass. */
export interface PackedBatch {
  tokens: Int32Array; // (N) input token of each row
  positions: Int32Array; // (N) position of each row within its sequence
  seqStarts: Int32Array; // (S) first row of each sequence
  seqLens: Int32Array; // (S) rows of each sequence
  outputRows: Int32Array; // (M) rows whose next-token logits are computed
}

/** Packs sequences end to end; `outputRows` are row indices into the packed batch. */
export function packSequences(sequences: readonly ArrayLike<number>[], outputRows: number[]): PackedBatch {
  const N = sequences.reduce((n, s) => n + s.length, 0);
  const batch: PackedBatch = {
    tokens: new Int32Array(N),
    positions: new Int32Array(N),
    seqStarts: new Int32Array(sequences.length),
    seqLens: new Int32Array(sequences.length),
    outputRows: Int32Array.from(outputRows),
  };
  let row = 0;
  sequences.forEach((seq, s) => {
    batch.seqStarts[s] = row;
    batch.seqLens[s] = seq.length;
    for (let t = 0; t < seq.length; t++, row++) {
      batch.tokens[row] = seq[t]!;
      batch.positions[row] = t;
    }
  });
  return batch;
}

/** The activations of one block, kept from the forward pass for the backward pass. */
interface LayerActivations {
  ln1: Floats; // (N, C)
  ln1Rstd: Floats; // (N)
  qkv: Floats; // (N, 3C), q and k rotated
  atty: Floats; // (N, C)
  resid2: Floats; // (N, C) block input + attention
  ln2: Floats; // (N, C)
  ln2Rstd: Floats; // (N)
  h13: Floats; // (N, 2F)
  sig: Floats; // (N, F) sigmoid of the gate
  act: Floats; // (N, F)
}

/** Every buffer of a forward and backward pass, allocated once for a capacity and reused. */
class Activations {
  readonly capacity: { N: number; M: number };
  readonly residuals: Floats[]; // L+1 × (N, C): the residual stream entering each block, then the output
  readonly layers: LayerActivations[];
  readonly hIn: Floats; // (M, C) final residual at the output rows
  readonly lnfRstd: Floats; // (M)
  readonly hOut: Floats; // (M, C) after the final norm
  readonly logits: Floats; // (M, V)
  // backward
  readonly dresid: Floats; // (N, C) gradient of the residual stream
  readonly dln: Floats; // (N, C)
  readonly dqkv: Floats; // (N, 3C)
  readonly datty: Floats; // (N, C)
  readonly dh13: Floats; // (N, 2F)
  readonly dact: Floats; // (N, F)
  readonly dhOut: Floats; // (M, C)
  readonly dhIn: Floats; // (M, C)
  readonly attScratch: AttentionScratch;

  constructor(config: ModelConfig, dtype: DType, N: number, M: number) {
    const { dModel: C, dFF: F, vocabSize: V, nLayers: L } = config;
    const f = (n: number): Floats => allocFloats(dtype, n);
    this.capacity = { N, M };
    this.residuals = Array.from({ length: L + 1 }, () => f(N * C));
    this.layers = Array.from({ length: L }, () => ({
      ln1: f(N * C),
      ln1Rstd: f(N),
      qkv: f(N * 3 * C),
      atty: f(N * C),
      resid2: f(N * C),
      ln2: f(N * C),
      ln2Rstd: f(N),
      h13: f(N * 2 * F),
      sig: f(N * F),
      act: f(N * F),
    }));
    this.hIn = f(M * C);
    this.lnfRstd = f(M);
    this.hOut = f(M * C);
    this.logits = f(M * V);
    this.dresid = f(N * C);
    this.dln = f(N * C);
    this.dqkv = f(N * 3 * C);
    this.datty = f(N * C);
    this.dh13 = f(N * 2 * F);
    this.dact = f(N * F);
    this.dhOut = f(M * C);
    this.dhIn = f(M * C);
    this.attScratch = attentionScratch(config, dtype);
  }

  fits(N: number, M: number): boolean {
    return N <= this.capacity.N && M <= this.capacity.M;
  }
}

/** Options of a Transformer: its dtype, and existing buffers to compute on (e.g. shared memory). */
export interface TransformerOptions {
  /** Element type of every buffer (default: that of `params`, else "f32"; "f64" is for gradient checks). */
  dtype?: DType;
  /** Flat parameter buffer of P floats (default: zeros; fill it with initParameters or a checkpoint). */
  params?: Floats;
  /** Flat gradient buffer of P floats (default: zeros). */
  grads?: Floats;
}

/**
 * A transformer's weights, gradients and activation buffers, with `forward` and `backward`.
 * `backward` must follow the `forward` of the same batch; gradients accumulate until zeroed.
 */
export class Transformer {
  readonly config: ModelConfig;
  readonly dtype: DType;
  readonly params: Floats; // (P)
  readonly grads: Floats; // (P)
  readonly weights: ModelTensors;
  readonly gradients: ModelTensors;
  readonly rope: RopeTable;
  private acts: Activations | null = null;

  constructor(config: ModelConfig, options: TransformerOptions = {}) {
    const dtype = options.dtype ?? (options.params ? dtypeOf(options.params) : "f32");
    const P = parameterCount(config);
    for (const buffer of [options.params, options.grads]) {
      if (buffer !== undefined && dtypeOf(buffer) !== dtype) {
        throw new EngineError(
          `a ${dtypeOf(buffer)} buffer was given to a ${dtype} model: allocate it with allocFloats("${dtype}", ...)`,
        );
      }
    }
    this.config = config;
    this.dtype = dtype;
    this.params = options.params ?? allocFloats(dtype, P);
    this.grads = options.grads ?? allocFloats(dtype, P);
    if (this.params.length !== P || this.grads.length !== P) {
      throw new EngineError(
        `parameter buffers hold ${this.params.length} and ${this.grads.length} floats but this config has ${P}: ` +
          "allocate them with parameterCount(config)",
      );
    }
    this.weights = tensorViews(config, this.params);
    this.gradients = tensorViews(config, this.grads);
    this.rope = ropeTable(config, dtype);
  }

  /** Sets every gradient to zero. */
  zeroGrad(): void {
    this.grads.fill(0);
  }

  /** Runs the batch and returns the logits (M, V) of its output rows, valid until the next forward. */
  forward(batch: PackedBatch): Floats {
    const { dModel: C, nHeads: H, dFF: F, vocabSize: V, normEps: eps } = this.config;
    this.checkBatch(batch);
    const N = batch.tokens.length;
    const M = batch.outputRows.length;
    const acts = this.activationsFor(batch);
    const w = this.weights;

    encoderForward(acts.residuals[0]!, batch.tokens, w.tokEmb, N, C);
    for (let l = 0; l < this.config.nLayers; l++) {
      const lw = w.layers[l]!;
      const la = acts.layers[l]!;
      const resid = acts.residuals[l]!; // (N, C)
      const out = acts.residuals[l + 1]!; // (N, C)
      // attention sub-block
      rmsnormForward(la.ln1, la.ln1Rstd, resid, lw.attnNorm, N, C, eps);
      linearForward(la.qkv, la.ln1, lw.wqkv, N, C, 3 * C);
      ropeApply(la.qkv, batch.positions, N, C, H, this.rope, 1);
      attentionForward(la.atty, la.qkv, batch, C, H, acts.attScratch);
      la.resid2.set(resid.subarray(0, N * C));
      linearForward(la.resid2, la.atty, lw.wo, N, C, C, true);
      // MLP sub-block
      rmsnormForward(la.ln2, la.ln2Rstd, la.resid2, lw.mlpNorm, N, C, eps);
      linearForward(la.h13, la.ln2, lw.w13, N, C, 2 * F);
      swigluForward(la.act, la.sig, la.h13, N, F);
      out.set(la.resid2.subarray(0, N * C));
      linearForward(out, la.act, lw.w2, N, F, C, true);
    }
    gatherRows(acts.hIn, acts.residuals[this.config.nLayers]!, batch.outputRows, C);
    rmsnormForward(acts.hOut, acts.lnfRstd, acts.hIn, w.norm, M, C, eps);
    linearForward(acts.logits, acts.hOut, w.tokEmb, M, C, V);
    return acts.logits.subarray(0, M * V);
  }

  /** Accumulates into `grads` the gradient of a loss whose gradient w.r.t. the logits is dlogits (M, V). */
  backward(batch: PackedBatch, dlogits: Floats): void {
    const { dModel: C, nHeads: H, dFF: F, vocabSize: V } = this.config;
    const acts = this.acts;
    if (acts === null)
      throw new EngineError("backward called before forward: run forward on the batch first");
    const N = batch.tokens.length;
    const M = batch.outputRows.length;
    const w = this.weights;
    const g = this.gradients;

    // output head (tied embedding) and final norm
    linearBackward(acts.dhOut, g.tokEmb, dlogits, acts.hOut, w.tokEmb, M, C, V);
    acts.dhIn.fill(0, 0, M * C);
    rmsnormBackward(acts.dhIn, g.norm, acts.dhOut, acts.hIn, w.norm, acts.lnfRstd, M, C);
    const dresid = acts.dresid; // (N, C), the gradient of the residual stream, carried down the blocks
    dresid.fill(0, 0, N * C);
    scatterRowsBackward(dresid, acts.dhIn, batch.outputRows, C);

    for (let l = this.config.nLayers - 1; l >= 0; l--) {
      const lw = w.layers[l]!;
      const lg = g.layers[l]!;
      const la = acts.layers[l]!;
      // MLP sub-block: out = resid2 + w2(act); dresid flows through unchanged and into the MLP
      linearBackward(acts.dact, lg.w2, dresid, la.act, lw.w2, N, F, C);
      swigluBackward(acts.dh13, acts.dact, la.h13, la.sig, N, F);
      linearBackward(acts.dln, lg.w13, acts.dh13, la.ln2, lw.w13, N, C, 2 * F);
      rmsnormBackward(dresid, lg.mlpNorm, acts.dln, la.resid2, lw.mlpNorm, la.ln2Rstd, N, C);
      // attention sub-block: resid2 = resid + wo(atty)
      linearBackward(acts.datty, lg.wo, dresid, la.atty, lw.wo, N, C, C);
      attentionBackward(acts.dqkv, acts.datty, la.qkv, batch, C, H, acts.attScratch);
      ropeApply(acts.dqkv, batch.positions, N, C, H, this.rope, -1);
      linearBackward(acts.dln, lg.wqkv, acts.dqkv, la.ln1, lw.wqkv, N, C, 3 * C);
      rmsnormBackward(dresid, lg.attnNorm, acts.dln, acts.residuals[l]!, lw.attnNorm, la.ln1Rstd, N, C);
    }
    encoderBackward(g.tokEmb, dresid, batch.tokens, N, C);
  }

  private activationsFor(batch: PackedBatch): Activations {
    const N = batch.tokens.length;
    const M = batch.outputRows.length;
    if (this.acts === null || !this.acts.fits(N, M)) {
      // grow with headroom so a slowly growing batch does not reallocate every step
      const c = this.acts?.capacity ?? { N: 0, M: 0 };
      const grow = (need: number, have: number): number => (need <= have ? have : Math.ceil(need * 1.25));
      this.acts = new Activations(
        this.config,
        this.dtype,
        grow(Math.max(N, 1), c.N),
        grow(Math.max(M, 1), c.M),
      );
    }
    return this.acts;
  }

  private checkBatch(batch: PackedBatch): void {
    const { vocabSize, maxSeqLen } = this.config;
    const N = batch.tokens.length;
    for (let n = 0; n < N; n++) {
      const token = batch.tokens[n]!;
      if (token < 0 || token >= vocabSize) {
        throw new EngineError(
          `token id ${token} at row ${n} is outside the vocabulary of ${vocabSize}: encode text with this model's tokenizer`,
        );
      }
      if (batch.positions[n]! >= maxSeqLen) {
        throw new EngineError(
          `position ${batch.positions[n]} at row ${n} is beyond the context of ${maxSeqLen} tokens: shorten the sequence`,
        );
      }
    }
    for (const row of batch.outputRows) {
      if (row < 0 || row >= N) {
        throw new EngineError(
          `output row ${row} is outside the batch of ${N} rows: pass row indices of the batch`,
        );
      }
    }
  }
}
