/**
 * The SIMD kernel for out (R, Q) = A · B (+ out), float32, B read row by row (B is (K, Q)): about
 * 9× the best plain-JavaScript loop on this model's shapes (38 against 4.3 GFLOPS on one core).
 * Used for the backward products; gemm-nt-wasm.ts computes the forward's A · Wᵀ.
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
import { op, type WasmFunction } from "./wasm-assembler.ts";

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
  const code: number[] = [];
  const accOf = (i: number, j: number): number => (scalar ? sacc + i : vacc + i * 2 + j);
  const columns = scalar ? 1 : vectors;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < columns; j++)
      code.push(...(scalar ? op.f32Const0 : op.v128Zero), ...op.set(accOf(i, j)));
  }
  // ap = a + r·aRowStride; bp = b + q·4; k = 0
  code.push(...op.get(A), ...op.get(r), ...op.get(A_ROW), ...op.i32Mul, ...op.i32Add, ...op.set(ap));
  code.push(...op.get(B), ...op.get(q), ...op.i32Const(4), ...op.i32Mul, ...op.i32Add, ...op.set(bp));
  code.push(...op.i32Const(0), ...op.set(k));
  code.push(...op.block, ...op.loop, ...op.get(k), ...op.get(K), ...op.i32GeS, ...op.brIf(1));
  if (scalar) code.push(...op.get(bp), ...op.f32Load(), ...op.set(sb));
  else for (let j = 0; j < vectors; j++) code.push(...op.get(bp), ...op.v128Load(16 * j), ...op.set(vb + j));
  for (let i = 0; i < rows; i++) {
    // address of A[r + i, k] = ap + i·aRowStride
    code.push(...op.get(ap));
    if (i > 0) code.push(...op.get(A_ROW), ...op.i32Const(i), ...op.i32Mul, ...op.i32Add);
    if (scalar) {
      // acc = a·b + acc: addition is commutative in IEEE arithmetic, so this equals the vector tiles' acc + a·b
      code.push(...op.f32Load(), ...op.get(sb), ...op.f32Mul, ...op.get(accOf(i, 0)), ...op.f32Add);
      code.push(...op.set(accOf(i, 0)));
    } else {
      code.push(...op.v128Load32Splat(), ...op.set(vsplat));
      for (let j = 0; j < vectors; j++) {
        code.push(
          ...op.get(accOf(i, j)),
          ...op.get(vsplat),
          ...op.get(vb + j),
          ...op.f32x4Mul,
          ...op.f32x4Add,
        );
        code.push(...op.set(accOf(i, j)));
      }
    }
  }
  code.push(...op.get(ap), ...op.get(A_COL), ...op.i32Add, ...op.set(ap));
  code.push(...op.get(bp), ...op.get(rowBytes), ...op.i32Add, ...op.set(bp));
  code.push(...op.get(k), ...op.i32Const(1), ...op.i32Add, ...op.set(k), ...op.br(0), ...op.end, ...op.end);
  for (let i = 0; i < rows; i++) {
    // outp = out + (r + i)·Q·4 + q·4
    code.push(
      ...op.get(OUT),
      ...op.get(r),
      ...op.i32Const(i),
      ...op.i32Add,
      ...op.get(rowBytes),
      ...op.i32Mul,
    );
    code.push(...op.i32Add, ...op.get(q), ...op.i32Const(4), ...op.i32Mul, ...op.i32Add, ...op.set(outp));
    for (let j = 0; j < columns; j++) {
      const acc = accOf(i, j);
      if (scalar) {
        code.push(...op.get(outp), ...op.get(ACCUMULATE), ...op.ifValue(0x7d));
        code.push(
          ...op.get(outp),
          ...op.f32Load(),
          ...op.get(acc),
          ...op.f32Add,
          ...op.else,
          ...op.get(acc),
          ...op.end,
        );
        code.push(...op.f32Store());
      } else {
        code.push(...op.get(outp), ...op.get(ACCUMULATE), ...op.ifValue(0x7b));
        code.push(
          ...op.get(outp),
          ...op.v128Load(16 * j),
          ...op.get(acc),
          ...op.f32x4Add,
          ...op.else,
          ...op.get(acc),
        );
        code.push(...op.end, ...op.v128Store(16 * j));
      }
    }
  }
  return code;
}

/** `for (; q + width <= Q; q += width) body` */
function columnLoop(width: number, body: number[]): number[] {
  return [
    ...op.block,
    ...op.loop,
    ...[...op.get(q), ...op.i32Const(width), ...op.i32Add, ...op.get(Q), ...op.i32GtS, ...op.brIf(1)],
    ...body,
    ...[...op.get(q), ...op.i32Const(width), ...op.i32Add, ...op.set(q), ...op.br(0)],
    ...op.end,
    ...op.end,
  ];
}

/** `for (; r + height <= R; r += height) { q = 0; 8-, 4- and 1-column tiles }` */
function rowLoop(height: number): number[] {
  return [
    ...op.block,
    ...op.loop,
    ...[...op.get(r), ...op.i32Const(height), ...op.i32Add, ...op.get(R), ...op.i32GtS, ...op.brIf(1)],
    ...op.i32Const(0),
    ...op.set(q),
    ...columnLoop(8, tile(height, 2)),
    ...columnLoop(4, tile(height, 1)),
    ...columnLoop(1, tile(height, 0)),
    ...[...op.get(r), ...op.i32Const(height), ...op.i32Add, ...op.set(r), ...op.br(0)],
    ...op.end,
    ...op.end,
  ];
}

/** gemm(out, a, b, R, Q, K, aRowStride, aColStride, accumulate): out (R, Q) (+)= A · B. */
export const gemmFunction: WasmFunction = {
  name: "gemm",
  params: 9,
  locals: { i32: 7, f32: 5, v128: 11 },
  body: [
    ...[...op.get(Q), ...op.i32Const(4), ...op.i32Mul, ...op.set(rowBytes)],
    ...[...op.i32Const(0), ...op.set(r)],
    ...rowLoop(4),
    ...rowLoop(1),
  ],
};
