/**
 * The SIMD kernel for out (R, Q) = A · B (+ out), float32, B read row by row (B is (K, Q)): about
 * 9× the best plain-JavaScript loop on this model's shapes (38 against 4.3 GFLOPS on one core).
 * Used for the backward products and attention; gemm-nt-wasm.ts computes A · Wᵀ.
 *
 * The emitted function, in pseudo-code (addresses and strides in bytes):
 *
 *   gemm(out, a, b, R, Q, K, aRowStride, aColStride, accumulate)
 *     for each block of 4 rows r (then single rows):
 *       for each block of 8 columns q (then 4, then single columns):
 *         acc[i][j] = 0                                  (4 lanes per vector, in registers)
 *         for k = 0 .. K-1:
 *           bv[j] = B[k, q + 4j .. q + 4j + 3]           (B is (K, Q), row-major)
 *           acc[i][j] += splat(A[r + i, k]) · bv[j]      (A at a + row·aRowStride + k·aColStride)
 *         out[r + i, q ..] = acc[i] (+ out[r + i, q ..] when accumulating)
 *
 * A's strides let the same code read A as (R, K) or transposed as (K, R), so a layer's forward and
 * both backward products need no transposed copy of the activations. Every output element is one
 * sum over k in increasing order with float32 rounding after each multiply and add, in every tile
 * shape, so a row's result never depends on the other rows: sampling one sequence alone or among
 * many gives bit-identical logits.
 */
import { addLocal, f32, forStep, op, seq, v128, type WasmFunction } from "./wasm-assembler.ts";

// parameters
const OUT = 0;
const A = 1;
const B = 2;
const R = 3;
const Q = 4;
const K = 5;
const A_ROW = 6;
const A_COL = 7;
const ACCUMULATE = 8;
// i32 locals
const r = 9;
const q = 10;
const k = 11;
const ap = 12; // address of A[r, k]
const bp = 13; // address of B[k, q]
const outp = 14; // address of out[r + i, q]
const rowBytes = 15; // Q · 4
// f32 locals
const sacc = 16; // 4 scalar accumulators
const sb = 20; // B[k, q] of a single column
// v128 locals
const vacc = 21; // 4 rows × 2 vectors of accumulators
const vb = 29; // 2 vectors of B
const vsplat = 31; // A[r + i, k] in all lanes

/** One tile of `rows` rows and `vectors` 4-lane column vectors (0: a single scalar column). */
function tile(rows: number, vectors: number): number[] {
  const scalar = vectors === 0;
  const columns = scalar ? 1 : vectors;
  const accOf = (i: number, j: number): number => (scalar ? sacc + i : vacc + i * 2 + j);
  const zero: number[][] = [];
  const body: number[][] = [];
  const store: number[][] = [];
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < columns; j++) zero.push(scalar ? op.f32Const0 : op.v128Zero, op.set(accOf(i, j)));
  }
  // one step of k: load B's row segment, then for each row splat A[r + i, k] and multiply-add
  if (scalar) body.push(op.get(bp), op.f32Load(), op.set(sb));
  else for (let j = 0; j < vectors; j++) body.push(op.get(bp), op.v128Load(16 * j), op.set(vb + j));
  for (let i = 0; i < rows; i++) {
    const aAddress =
      i === 0 ? op.get(ap) : seq(op.get(ap), op.get(A_ROW), op.i32Const(i), op.i32Mul, op.i32Add);
    if (scalar) {
      // a·b + acc equals the vector tiles' acc + a·b: IEEE addition is commutative
      body.push(
        aAddress,
        op.f32Load(),
        op.get(sb),
        op.f32Mul,
        op.get(accOf(i, 0)),
        op.f32Add,
        op.set(accOf(i, 0)),
      );
    } else {
      body.push(aAddress, op.v128Load32Splat(), op.set(vsplat));
      for (let j = 0; j < vectors; j++) {
        const acc = accOf(i, j);
        body.push(op.get(acc), op.get(vsplat), op.get(vb + j), op.f32x4Mul, op.f32x4Add, op.set(acc));
      }
    }
  }
  body.push(addLocal(ap, A_COL), addLocal(bp, rowBytes));
  for (let i = 0; i < rows; i++) {
    // outp = out + (r + i)·Q·4 + q·4
    store.push(op.get(OUT), op.get(r), op.i32Const(i), op.i32Add, op.get(rowBytes), op.i32Mul, op.i32Add);
    store.push(op.get(q), op.i32Const(4), op.i32Mul, op.i32Add, op.set(outp));
    for (let j = 0; j < columns; j++) {
      // out = acc, or out + acc when accumulating
      const acc = accOf(i, j);
      if (scalar) {
        store.push(
          op.get(outp),
          op.get(ACCUMULATE),
          op.ifValue(f32),
          op.get(outp),
          op.f32Load(),
          op.get(acc),
        );
        store.push(op.f32Add, op.else, op.get(acc), op.end, op.f32Store());
      } else {
        store.push(
          op.get(outp),
          op.get(ACCUMULATE),
          op.ifValue(v128),
          op.get(outp),
          op.v128Load(16 * j),
          op.get(acc),
        );
        store.push(op.f32x4Add, op.else, op.get(acc), op.end, op.v128Store(16 * j));
      }
    }
  }
  return seq(
    ...zero,
    seq(op.get(A), op.get(r), op.get(A_ROW), op.i32Mul, op.i32Add, op.set(ap)), // ap = a + r·aRowStride
    seq(op.get(B), op.get(q), op.i32Const(4), op.i32Mul, op.i32Add, op.set(bp)), // bp = b + q·4
    seq(op.i32Const(0), op.set(k)),
    forStep(k, 1, K, seq(...body)),
    ...store,
  );
}

/** Rows in blocks of `height`, each row block in 8-, 4- and 1-column tiles. */
function rowBlocks(height: number): number[] {
  const columns = seq(
    op.i32Const(0),
    op.set(q),
    forStep(q, 8, Q, tile(height, 2)),
    forStep(q, 4, Q, tile(height, 1)),
    forStep(q, 1, Q, tile(height, 0)),
  );
  return forStep(r, height, R, columns);
}

/** gemm(out, a, b, R, Q, K, aRowStride, aColStride, accumulate): out (R, Q) (+)= A · B. */
export const gemmFunction: WasmFunction = {
  name: "gemm",
  params: 9,
  locals: { i32: 7, f32: 5, v128: 11 },
  body: seq(
    op.get(Q),
    op.i32Const(4),
    op.i32Mul,
    op.set(rowBytes),
    op.i32Const(0),
    op.set(r),
    rowBlocks(4),
    rowBlocks(1),
  ),
};
