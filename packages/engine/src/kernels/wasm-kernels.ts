/**
 * `matmulWasm`: the SIMD products (gemm-wasm.ts for A · B, gemm-nt-wasm.ts for A · Bᵀ) on ordinary
 * arrays. It copies the operands into a heap of its thread (wasm-heap.ts), runs the right kernel and
 * copies the result out. The copies cost a few percent next to the products of training; in
 * exchange every buffer of the model stays an ordinary array.
 */
import { EngineError } from "../errors.ts";
import { WasmHeap } from "./wasm-heap.ts";

let heap: WasmHeap | null = null; // this thread's, grown to the largest call so far

/** n rounded up to a multiple of 4 (floats), so each operand starts 16-byte aligned. */
function roundUp4(n: number): number {
  return (n + 3) & ~3;
}

/**
 * out (R, Q) = op(a) · op(b), or out += when `accumulate`; op(a) is a (R, K), or aᵀ for a (K, R)
 * when `transA`; op(b) is b (K, Q), or bᵀ for b (Q, K) when `transB`. Not both transposed.
 */
export function matmulWasm(
  out: Float32Array,
  a: Float32Array,
  b: Float32Array,
  rows: number,
  cols: number,
  inner: number,
  transA: boolean,
  transB: boolean,
  accumulate: boolean,
): void {
  if (transA && transB) {
    throw new EngineError("matmulWasm takes at most one transposed operand: transpose one of them first");
  }
  // heap layout: [ A (rows·inner) | B (inner·cols) | out (rows·cols) ], each 16-byte aligned
  const aAt = 0;
  const bAt = roundUp4(rows * inner);
  const outAt = bAt + roundUp4(inner * cols);
  heap ??= new WasmHeap();
  heap.reserve(outAt + rows * cols);
  const floats = heap.floats;
  floats.set(a.subarray(0, rows * inner), aAt);
  floats.set(b.subarray(0, inner * cols), bAt);
  if (accumulate) floats.set(out.subarray(0, rows * cols), outAt);
  if (transB) heap.gemmNT(outAt, aAt, bAt, rows, cols, inner, accumulate);
  else heap.gemm(outAt, aAt, bAt, rows, cols, inner, transA, accumulate);
  out.set(floats.subarray(outAt, outAt + rows * cols));
}
