/**
 * The SIMD kernel for out (R, Q) = A · Bᵀ (+ out), float32, with B stored (Q, K) as a linear
 * layer's weight is: every output is a dot product of two contiguous rows, so the forward pass reads
 * weights in place with no transposed copy (what sampling, one row at a time, needs most).
 *
 *   gemmNT(out, a, b, R, Q, K, accumulate)            (addresses in bytes; a is (R, K), b is (Q, K))
 *     for each block of 4 rows r (then single rows):
 *       for each block of 2 columns q (then single columns):
 *         acc[i][j] = 0                                 (4 lanes: lane l sums the k ≡ l mod 4 terms)
 *         for k = 0, 4, 8, .. while k + 4 <= K:
 *           acc[i][j] += A[r + i, k .. k+3] · B[q + j, k .. k+3]
 *         s = (lane0 + lane1) + (lane2 + lane3), then s += A[r+i, k]·B[q+j, k] for the last K mod 4
 *         out[r + i, q + j] = s (+ out[r + i, q + j] when accumulating)
 *
 * The order of every sum is the same in every tile shape, so a row's result never depends on the
 * other rows (sampling one sequence alone or among many gives bit-identical logits).
 */
import { f32, forStep, op, seq, type WasmFunction } from "./wasm-assembler.ts";

// parameters
const OUT = 0;
const A = 1;
const B = 2;
const R = 3;
const Q = 4;
const K = 5;
const ACCUMULATE = 6;
// i32 locals
const r = 7;
const q = 8;
const k = 9;
const ap = 10; // address of A[r, k]
const bp = 11; // address of B[q, k]
const rowBytes = 12; // K · 4
const tailA = 13; // address of A[r + i, t] in the K mod 4 tail
const tailB = 14; // address of B[q + j, t]
const t = 15;
const outp = 16;
// f32 locals
const sum = 17;
// v128 locals
const vacc = 18; // 4 rows × 2 columns of accumulators
const vb = 26; // B[q + j, k .. k+3]
const va = 28; // A[r + i, k .. k+3]

/** Address of row `i` after `base`: base + i · K · 4. */
function rowAddress(base: number, i: number): number[] {
  return i === 0 ? op.get(base) : seq(op.get(base), op.get(rowBytes), op.i32Const(i), op.i32Mul, op.i32Add);
}

/** One tile of `rows` rows × `cols` columns. */
function tile(rows: number, cols: number): number[] {
  const accOf = (i: number, j: number): number => vacc + i * 2 + j;
  const zero: number[][] = [];
  const body: number[][] = [];
  const finish: number[][] = [];
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) zero.push(op.v128Zero, op.set(accOf(i, j)));
  // one step of four k: load B's row segments, then each row of A and multiply-add
  for (let j = 0; j < cols; j++) body.push(rowAddress(bp, j), op.v128Load(), op.set(vb + j));
  for (let i = 0; i < rows; i++) {
    body.push(rowAddress(ap, i), op.v128Load(), op.set(va));
    for (let j = 0; j < cols; j++) {
      const acc = accOf(i, j);
      body.push(op.get(acc), op.get(va), op.get(vb + j), op.f32x4Mul, op.f32x4Add, op.set(acc));
    }
  }
  body.push(
    seq(op.get(ap), op.i32Const(16), op.i32Add, op.set(ap)),
    seq(op.get(bp), op.i32Const(16), op.i32Add, op.set(bp)),
  );
  // ap and bp now address column k of rows r and q, where the K mod 4 tail starts
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const lane = (l: number): number[] => seq(op.get(accOf(i, j)), op.f32x4ExtractLane(l));
      finish.push(lane(0), lane(1), op.f32Add, lane(2), lane(3), op.f32Add, op.f32Add, op.set(sum));
      // for (t = k; t < K; t++) sum += A[r + i, t] · B[q + j, t]
      const step = seq(
        seq(
          op.get(tailA),
          op.f32Load(),
          op.get(tailB),
          op.f32Load(),
          op.f32Mul,
          op.get(sum),
          op.f32Add,
          op.set(sum),
        ),
        seq(op.get(tailA), op.i32Const(4), op.i32Add, op.set(tailA)),
        seq(op.get(tailB), op.i32Const(4), op.i32Add, op.set(tailB)),
      );
      finish.push(rowAddress(ap, i), op.set(tailA), rowAddress(bp, j), op.set(tailB), op.get(k), op.set(t));
      finish.push(forStep(t, 1, K, step));
      // out[r + i, q + j] = sum, or out + sum when accumulating
      finish.push(
        op.get(OUT),
        op.get(r),
        op.i32Const(i),
        op.i32Add,
        op.get(Q),
        op.i32Mul,
        op.get(q),
        op.i32Add,
      );
      finish.push(op.i32Const(j), op.i32Add, op.i32Const(4), op.i32Mul, op.i32Add, op.set(outp));
      finish.push(op.get(outp), op.get(ACCUMULATE), op.ifValue(f32), op.get(outp), op.f32Load(), op.get(sum));
      finish.push(op.f32Add, op.else, op.get(sum), op.end, op.f32Store());
    }
  }
  return seq(
    ...zero,
    seq(op.get(A), op.get(r), op.get(rowBytes), op.i32Mul, op.i32Add, op.set(ap)), // ap = a + r·K·4
    seq(op.get(B), op.get(q), op.get(rowBytes), op.i32Mul, op.i32Add, op.set(bp)), // bp = b + q·K·4
    seq(op.i32Const(0), op.set(k)),
    forStep(k, 4, K, seq(...body)),
    ...finish,
  );
}

/** Rows in blocks of `height`, each row block in 2- and 1-column tiles. */
function rowBlocks(height: number): number[] {
  const columns = seq(
    op.i32Const(0),
    op.set(q),
    forStep(q, 2, Q, tile(height, 2)),
    forStep(q, 1, Q, tile(height, 1)),
  );
  return forStep(r, height, R, columns);
}

/** gemmNT(out, a, b, R, Q, K, accumulate): out (R, Q) (+)= A · Bᵀ. */
export const gemmNTFunction: WasmFunction = {
  name: "gemmNT",
  params: 7,
  locals: { i32: 10, f32: 1, v128: 11 },
  body: seq(
    op.get(K),
    op.i32Const(4),
    op.i32Mul,
    op.set(rowBytes),
    op.i32Const(0),
    op.set(r),
    rowBlocks(4),
    rowBlocks(1),
  ),
};
