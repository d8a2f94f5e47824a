/**
 * The exponentials of sampling's last steps in WebAssembly, over a row of double-precision logits
 * z (the logits processor's): their sum after subtracting the max, and the draw that walks the
 * probabilities in id order. Their reference is logits-processor.ts's own loops (logSumExp and the
 * draw of `pick`), whose arithmetic they repeat step for step, with Math.exp's bits (exp-wasm.ts)
 * two at a time and every sum in id order, so the picked token and its logprob are the same.
 *
 *   sumExp(z, n, max) -> f64        Σ exp(z[i] − max), i = 0 .. n − 1, summed in order
 *   draw(z, n, lse, u) -> i32       the first i with Σ_{j<=i} exp(z[j] − lse) > u, else n − 1
 *
 * (z a byte address; every token kept: the processor keeps its own loops when it truncates.)
 */
import { EXP_PAIR_SCRATCH, EXP_SCRATCH, expF64, expF64x2, expLocalsOf, expPairLocalsOf } from "./exp-wasm.ts";
import { f64, i32, namedLocals, op, seq, type WasmFunction, whileFits } from "./wasm-assembler.ts";

const get = op.get;

const sumNames = namedLocals({
  params: { z: i32, n: i32, max: f64 },
  i32: ["end", ...EXP_SCRATCH.i32],
  v128: ["x2", "e2", ...EXP_PAIR_SCRATCH],
  f64: ["sum", "x", "e", ...EXP_SCRATCH.f64],
});

/** sumExp(z, n, max) -> f64. */
export const sumExpFunction: WasmFunction = {
  name: "sumExp",
  params: sumNames.params,
  result: f64,
  locals: sumNames.locals,
  body: (() => {
    const at = sumNames.at;
    const scalar = expLocalsOf(at, at.x, at.e);
    return seq(
      seq(get(at.z), get(at.n), op.i32Const(8), op.i32Mul, op.i32Add, op.set(at.end)),
      whileFits(
        at.z,
        16,
        at.end,
        seq(
          seq(get(at.z), op.v128Load(), get(at.max), op.f64x2Splat, op.f64x2Sub, op.set(at.x2)),
          expF64x2(expPairLocalsOf(at, at.x2, at.e2, scalar)),
          seq(get(at.sum), get(at.e2), op.f64x2ExtractLane(0), op.f64Add),
          seq(get(at.e2), op.f64x2ExtractLane(1), op.f64Add, op.set(at.sum)),
          seq(get(at.z), op.i32Const(16), op.i32Add, op.set(at.z)),
        ),
      ),
      whileFits(
        at.z,
        8,
        at.end,
        seq(
          seq(get(at.z), op.f64Load(), get(at.max), op.f64Sub, op.set(at.x)),
          expF64(scalar),
          seq(get(at.sum), get(at.e), op.f64Add, op.set(at.sum)),
          seq(get(at.z), op.i32Const(8), op.i32Add, op.set(at.z)),
        ),
      ),
      get(at.sum),
    );
  })(),
};

const drawNames = namedLocals({
  params: { z: i32, n: i32, lse: f64, u: f64 },
  i32: ["end", "i", ...EXP_SCRATCH.i32],
  v128: ["x2", "e2", ...EXP_PAIR_SCRATCH],
  f64: ["cumulative", "x", "e", ...EXP_SCRATCH.f64],
});

/** draw(z, n, lse, u) -> i32. */
export const drawFunction: WasmFunction = {
  name: "draw",
  params: drawNames.params,
  result: i32,
  locals: drawNames.locals,
  body: (() => {
    const at = drawNames.at;
    const scalar = expLocalsOf(at, at.x, at.e);
    /** cumulative += the exponential in `value`; return i + `lane` once it passes u. */
    const add = (value: number[], lane: number): number[] =>
      seq(
        seq(get(at.cumulative), value, op.f64Add, op.set(at.cumulative)),
        seq(get(at.cumulative), get(at.u), op.f64Gt, op.if),
        seq(get(at.i), op.i32Const(lane), op.i32Add, op.return),
        op.end,
      );
    return seq(
      seq(get(at.z), get(at.n), op.i32Const(8), op.i32Mul, op.i32Add, op.set(at.end)),
      whileFits(
        at.z,
        16,
        at.end,
        seq(
          seq(get(at.z), op.v128Load(), get(at.lse), op.f64x2Splat, op.f64x2Sub, op.set(at.x2)),
          expF64x2(expPairLocalsOf(at, at.x2, at.e2, scalar)),
          add(seq(get(at.e2), op.f64x2ExtractLane(0)), 0),
          add(seq(get(at.e2), op.f64x2ExtractLane(1)), 1),
          seq(get(at.z), op.i32Const(16), op.i32Add, op.set(at.z)),
          seq(get(at.i), op.i32Const(2), op.i32Add, op.set(at.i)),
        ),
      ),
      whileFits(
        at.z,
        8,
        at.end,
        seq(
          seq(get(at.z), op.f64Load(), get(at.lse), op.f64Sub, op.set(at.x)),
          expF64(scalar),
          add(get(at.e), 0),
          seq(get(at.z), op.i32Const(8), op.i32Add, op.set(at.z)),
          seq(get(at.i), op.i32Const(1), op.i32Add, op.set(at.i)),
        ),
      ),
      seq(get(at.n), op.i32Const(1), op.i32Sub),
    );
  })(),
};
