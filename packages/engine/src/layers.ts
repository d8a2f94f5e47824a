/**
 * The layers of the model, each as a forward and a backward function written by hand (after
 * llm.c's train_gpt2.c): embedding, RMSNorm, linear, rotary positions, causal attention over packed
 * sequences, SwiGLU, and the row gathers of the output head. model.ts chains them; the sampler's
 * cached forward (sampling/cached-forward.ts) reuses the forward ones.
 *
 * Legend of dimensions (the shape comment on every buffer uses these):
 *   N  rows of a packed batch (input tokens of all sequences, end to end)
 *   S  sequences; sequence s owns rows seqStarts[s] .. seqStarts[s] + T - 1, T = seqLens[s]
 *   M  output rows: the rows whose next-token logits are wanted
 *   C  channels (dModel)    H  heads    D = C/H head size    F  MLP width (dFF)
 *   V  vocabulary           L  layers   P  parameters
 */
import type { ModelConfig } from "./config.ts";
import { allocFloats, type DType, type Floats } from "./floats.ts";
import { matmul } from "./kernels/matmul.ts";
import type { PackedBatch } from "./packed-batch.ts";

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
    for (let i = 0; i < C; i++) dTokEmb[dst + i]! += dout[src + i]!;
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
      dweight[i]! += dy * x * r;
      dinp[o + i]! += r * weight[i]! * dy - k * x;
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
    for (let i = 0; i < C; i++) dinp[dst + i]! += dout[m * C + i]!;
  }
}
