/**
 * The SwiGLU activation of sampling's forward in WebAssembly: act = silu(gate) · up for rows of
 * h13 (rows, 2F) = [gate, up]. Its reference is layers.ts's swigluForward, whose arithmetic it
 * repeats step for step in double precision (σ(g) = 1 / (1 + exp(−g)) with Math.exp's bits from
 * exp-wasm.ts, then (g·σ)·up rounded to float32), two columns at a time, so the two agree bit for
 * bit. It skips the sigmoid that swigluForward keeps for the backward pass: sampling has none.
 *
 *   swiglu(h13, act, rows, F)     (byte addresses; act is (rows, F))
 */
import { EXP_PAIR_SCRATCH, EXP_SCRATCH, expF64, expF64x2, expLocalsOf, expPairLocalsOf } from "./exp-wasm.ts";
import { advance, i32, namedLocals, op, seq, type WasmFunction, whileFits } from "./wasm-assembler.ts";

const { at, params, locals } = namedLocals({
  params: { h13: i32, act: i32, rows: i32, F: i32 },
  i32: ["gate", "rowEnd", "end", "out", "upOffset", ...EXP_SCRATCH.i32],
  v128: ["g2", "x2", "e2", ...EXP_PAIR_SCRATCH],
  f64: ["g", "x", "e", ...EXP_SCRATCH.f64],
});
const get = op.get;
const scalarExp = expLocalsOf(at, at.x, at.e);
const pairExp = expPairLocalsOf(at, at.x2, at.e2, scalarExp);

// two columns: g = gate, σ = 1 / (1 + exp(−g)), act = float32((g·σ)·up), up F floats after the gate
const two = seq(
  seq(get(at.gate), op.v128Load64Zero(), op.f64x2PromoteLowF32x4, op.set(at.g2)),
  seq(get(at.g2), op.f64x2Neg, op.set(at.x2)),
  expF64x2(pairExp),
  seq(get(at.out), get(at.g2), op.f64x2Const([1, 1]), op.f64x2Const([1, 1]), get(at.e2), op.f64x2Add),
  seq(op.f64x2Div, op.f64x2Mul),
  seq(get(at.gate), get(at.upOffset), op.i32Add, op.v128Load64Zero(), op.f64x2PromoteLowF32x4, op.f64x2Mul),
  seq(op.f32x4DemoteF64x2Zero, op.v128Store64Lane0()),
  advance(at.gate, 8),
  advance(at.out, 8),
);
// the last column of an odd F, alone
const one = seq(
  seq(get(at.gate), op.f32Load(), op.f64PromoteF32, op.set(at.g)),
  seq(get(at.g), op.f64Neg, op.set(at.x)),
  expF64(scalarExp),
  seq(get(at.out), get(at.g), op.f64Const(1), op.f64Const(1), get(at.e), op.f64Add, op.f64Div, op.f64Mul),
  seq(get(at.gate), get(at.upOffset), op.i32Add, op.f32Load(), op.f64PromoteF32, op.f64Mul),
  seq(op.f32DemoteF64, op.f32Store()),
  advance(at.gate, 4),
  advance(at.out, 4),
);

/** swiglu(h13, act, rows, F): act (rows, F) = silu(h13[:, :F]) · h13[:, F:]. */
export const swigluFunction: WasmFunction = {
  name: "swiglu",
  params,
  locals,
  body: seq(
    seq(get(at.h13), op.set(at.gate), get(at.act), op.set(at.out)),
    seq(get(at.F), op.i32Const(4), op.i32Mul, op.set(at.upOffset)),
    // end = h13 + rows·2F floats
    seq(
      get(at.h13),
      get(at.rows),
      get(at.F),
      op.i32Mul,
      op.i32Const(8),
      op.i32Mul,
      op.i32Add,
      op.set(at.end),
    ),
    whileFits(
      at.gate,
      1, // while gate < end
      at.end,
      seq(
        seq(get(at.gate), get(at.upOffset), op.i32Add, op.set(at.rowEnd)),
        whileFits(at.gate, 8, at.rowEnd, two),
        whileFits(at.gate, 4, at.rowEnd, one),
        // skip the row's up half
        seq(get(at.gate), get(at.upOffset), op.i32Add, op.set(at.gate)),
      ),
    ),
  ),
};
