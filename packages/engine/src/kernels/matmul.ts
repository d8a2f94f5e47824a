/**
 * The one matrix product the model is built on: out (R, Q) = op(a) · op(b), or out += when
 * accumulating, where op transposes its operand or not. float32 runs on the WebAssembly SIMD kernels
 * (wasm-kernels.ts); float64 (the gradient checks) runs the plain reference below, which the tests
 * also compare the fast kernel against.
 */
import type { Floats } from "../floats.ts";
import { matmulWasm } from "./wasm-kernels.ts";

/**
 * out (R, Q) (+)= op(a) · op(b): op(a) is a (R, K), or aᵀ for a (K, R) when `transA`; op(b) is
 * b (K, Q), or bᵀ for b (Q, K) when `transB`.
 */
export function matmul(
  out: Floats,
  a: Floats,
  b: Floats,
  R: number,
  Q: number,
  K: number,
  transA: boolean,
  transB: boolean,
  accumulate: boolean,
): void {
  if (out instanceof Float32Array && a instanceof Float32Array && b instanceof Float32Array) {
    matmulWasm(out, a, b, R, Q, K, transA, transB, accumulate);
  } else {
    matmulReference(out, a, b, R, Q, K, transA, transB, accumulate);
  }
}

/** The reference: one dot product per output element, summed in double precision. */
export function matmulReference(
  out: Floats,
  a: Floats,
  b: Floats,
  R: number,
  Q: number,
  K: number,
  transA: boolean,
  transB: boolean,
  accumulate: boolean,
): void {
  for (let r = 0; r < R; r++) {
    for (let q = 0; q < Q; q++) {
      let s = 0;
      for (let k = 0; k < K; k++) {
        const x = transA ? a[k * R + r]! : a[r * K + k]!;
        const y = transB ? b[q * K + k]! : b[k * Q + q]!;
        s += x * y;
      }
      out[r * Q + q] = accumulate ? out[r * Q + q]! + s : s;
    }
  }
}
