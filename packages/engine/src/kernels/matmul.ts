/**
 * The one matrix product the model is built on, out = a · bᵀ, in a fast register-tiled form and
 * the plain reference it must agree with (compared in matmul.test.ts).
 *
 * Every output element is one dot product summed over k in increasing order, in double precision,
 * whatever tile it falls in. So a row's result never depends on which other rows are in the batch:
 * sampling one sequence alone or among many gives bit-identical logits.
 */
import type { Floats } from "../floats.ts";

/**
 * out (R, Q) = a (R, K) · b (Q, K)ᵀ, or out += when `accumulate`.
 * Tiles of 4 rows × 4 columns keep 16 sums in registers and read each loaded value 4 times.
 */
export function matmulABt(
  out: Floats,
  a: Floats,
  b: Floats,
  R: number,
  Q: number,
  K: number,
  accumulate: boolean,
): void {
  const R4 = R - (R % 4);
  const Q4 = Q - (Q % 4);
  for (let r = 0; r < R4; r += 4) {
    const a0 = r * K;
    const a1 = a0 + K;
    const a2 = a1 + K;
    const a3 = a2 + K;
    // biome-ignore format: a 4×4 register tile reads best as a grid
    for (let q = 0; q < Q4; q += 4) {
      const b0 = q * K, b1 = b0 + K, b2 = b1 + K, b3 = b2 + K;
      let s00 = 0, s01 = 0, s02 = 0, s03 = 0;
      let s10 = 0, s11 = 0, s12 = 0, s13 = 0;
      let s20 = 0, s21 = 0, s22 = 0, s23 = 0;
      let s30 = 0, s31 = 0, s32 = 0, s33 = 0;
      for (let k = 0; k < K; k++) {
        const x0 = a[a0 + k]!, x1 = a[a1 + k]!, x2 = a[a2 + k]!, x3 = a[a3 + k]!;
        const y0 = b[b0 + k]!, y1 = b[b1 + k]!, y2 = b[b2 + k]!, y3 = b[b3 + k]!;
        s00 += x0 * y0; s01 += x0 * y1; s02 += x0 * y2; s03 += x0 * y3;
        s10 += x1 * y0; s11 += x1 * y1; s12 += x1 * y2; s13 += x1 * y3;
        s20 += x2 * y0; s21 += x2 * y1; s22 += x2 * y2; s23 += x2 * y3;
        s30 += x3 * y0; s31 += x3 * y1; s32 += x3 * y2; s33 += x3 * y3;
      }
      const o0 = r * Q + q, o1 = o0 + Q, o2 = o1 + Q, o3 = o2 + Q;
      if (accumulate) {
        out[o0] += s00; out[o0 + 1] += s01; out[o0 + 2] += s02; out[o0 + 3] += s03;
        out[o1] += s10; out[o1 + 1] += s11; out[o1 + 2] += s12; out[o1 + 3] += s13;
        out[o2] += s20; out[o2 + 1] += s21; out[o2 + 2] += s22; out[o2 + 3] += s23;
        out[o3] += s30; out[o3 + 1] += s31; out[o3 + 2] += s32; out[o3 + 3] += s33;
      } else {
        out[o0] = s00; out[o0 + 1] = s01; out[o0 + 2] = s02; out[o0 + 3] = s03;
        out[o1] = s10; out[o1 + 1] = s11; out[o1 + 2] = s12; out[o1 + 3] = s13;
        out[o2] = s20; out[o2 + 1] = s21; out[o2 + 2] = s22; out[o2 + 3] = s23;
        out[o3] = s30; out[o3 + 1] = s31; out[o3 + 2] = s32; out[o3 + 3] = s33;
      }
    }
    // leftover columns of this 4-row strip
    for (let q = Q4; q < Q; q++) {
      for (let i = 0; i < 4; i++) dotInto(out, a, b, r + i, q, Q, K, accumulate);
    }
  }
  // leftover rows
  for (let r = R4; r < R; r++) {
    for (let q = 0; q < Q; q++) dotInto(out, a, b, r, q, Q, K, accumulate);
  }
}

function dotInto(
  out: Floats,
  a: Floats,
  b: Floats,
  r: number,
  q: number,
  Q: number,
  K: number,
  accumulate: boolean,
): void {
  const ao = r * K;
  const bo = q * K;
  let s = 0;
  for (let k = 0; k < K; k++) s += a[ao + k]! * b[bo + k]!;
  if (accumulate) out[r * Q + q] += s;
  else out[r * Q + q] = s;
}

/** The reference: out (R, Q) (+)= a (R, K) · b (Q, K)ᵀ, one dot product at a time. */
export function matmulABtReference(
  out: Floats,
  a: Floats,
  b: Floats,
  R: number,
  Q: number,
  K: number,
  accumulate: boolean,
): void {
  for (let r = 0; r < R; r++) {
    for (let q = 0; q < Q; q++) {
      let s = 0;
      for (let k = 0; k < K; k++) s += a[r * K + k]! * b[q * K + k]!;
      out[r * Q + q] = accumulate ? out[r * Q + q]! + s : s;
    }
  }
}

/** out (cols, rows) = inp (rows, cols)ᵀ. */
export function transpose(out: Floats, inp: Floats, rows: number, cols: number): void {
  for (let r = 0; r < rows; r++) {
    const ro = r * cols;
    for (let c = 0; c < cols; c++) out[c * rows + r] = inp[ro + c]!;
  }
}
