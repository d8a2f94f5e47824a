/**
 * The SwiGLU activation of sampling's forward in WebAssembly: act = silu(gate) · up for rows of
 * h13 (rows, 2F) = [gate, up]. Its reference is layers.ts's swigluForward, whose arithmetic it
 * repeats step for step in double precision (σ(g) = 1 / (1 + exp(−g)) with Math.exp's exp from
 * exp-wasm.ts, then (g·σ)·up rounded to float32), so the two agree bit for bit. It skips the
 * sigmoid that swigluForward keeps for the backward pass: sampling has none.
 *
 *   swiglu(h13, act, rows, F)     (byte addresses; act is (rows, F))
 */
import { EXP_SCRATCH, expF64, expLocalsOf } from "./exp-wasm.ts";
import { i32, namedLocals, op, seq, type WasmFunction } from "./wasm-assembler.ts";

const { at, params, locals } = namedLocals({
  params: { h13: i32, act: i32, rows: i32, F: i32 },
  i32: ["gate", "rowEnd", "end", "out", ...EXP_SCRATCH.i32],
  f64: ["g", "sg", "x", "e", ...EXP_SCRATCH.f64],
});

/** `while (ptr < end) { body }` over i32 locals; the body advances ptr. */
function whileBelow(ptr: number, end: number, body: number[]): number[] {
  return seq(
    op.block,
    op.loop,
    op.get(ptr),
    op.get(end),
    op.i32GeU,
    op.brIf(1),
    body,
    op.br(0),
    op.end,
    op.end,
  );
}

/** swiglu(h13, act, rows, F): act (rows, F) = silu(h13[:, :F]) · h13[:, F:]. */
export const swigluFunction: WasmFunction = {
  name: "swiglu",
  params,
  locals,
  body: seq(
    seq(op.get(at.h13), op.set(at.gate), op.get(at.act), op.set(at.out)),
    // end = h13 + rows·2F floats
    seq(op.get(at.h13), op.get(at.rows), op.get(at.F), op.i32Mul, op.i32Const(8), op.i32Mul, op.i32Add),
    op.set(at.end),
    whileBelow(
      at.gate,
      at.end,
      seq(
        seq(op.get(at.gate), op.get(at.F), op.i32Const(4), op.i32Mul, op.i32Add, op.set(at.rowEnd)),
        whileBelow(
          at.gate,
          at.rowEnd,
          seq(
            // g = gate; σ = 1 / (1 + exp(−g)); act = float32((g·σ)·up), up F floats after the gate
            seq(op.get(at.gate), op.f32Load(), op.f64PromoteF32, op.set(at.g)),
            seq(op.get(at.g), op.f64Neg, op.set(at.x)),
            expF64(expLocalsOf(at, at.x, at.e)),
            seq(op.f64Const(1), op.f64Const(1), op.get(at.e), op.f64Add, op.f64Div, op.set(at.sg)),
            seq(op.get(at.out), op.get(at.g), op.get(at.sg), op.f64Mul),
            seq(op.get(at.gate), op.get(at.F), op.i32Const(4), op.i32Mul, op.i32Add, op.f32Load()),
            seq(op.f64PromoteF32, op.f64Mul, op.f32DemoteF64, op.f32Store()),
            seq(op.get(at.gate), op.i32Const(4), op.i32Add, op.set(at.gate)),
            seq(op.get(at.out), op.i32Const(4), op.i32Add, op.set(at.out)),
          ),
        ),
        // skip the row's up half
        seq(op.get(at.gate), op.get(at.F), op.i32Const(4), op.i32Mul, op.i32Add, op.set(at.gate)),
      ),
    ),
  ),
};
