/**
 * The SIMD kernel of one new row's attention over its KV cache, all heads, for sampling: it stores
 * the row's keys and values at its position, then for each head computes the scores q·kⱼ of every
 * position up to its own, their softmax and the weighted sum of the values. Its reference is what
 * the training forward does for that row (layers.ts: gemmNT for the scores, softmaxRow, gemm for
 * P·V), and it repeats that arithmetic step for step, so its output is the same bit for bit:
 *   - a score sums four lanes over k ≡ 0..3 (mod 4), then (lane0 + lane1) + (lane2 + lane3), then
 *     the D mod 4 last terms one by one, as gemm-nt-wasm.ts does;
 *   - the softmax scales and takes the max in double precision, rounds scores to float32, sums the
 *     exponentials (Math.exp's, from exp-wasm.ts) in double precision in key order, and rounds each
 *     probability after multiplying by 1/sum, as softmaxRow does;
 *   - the output sums p·v over keys in order with float32 rounding after each step, as gemm-wasm.ts.
 *
 * It is assembled for one model config (heads, head size and context are constants in the code):
 *
 *   attentionRow(qkv, keys, pos, out, probs)     (byte addresses)
 *     qkv   the row's q, k, v (3C), q and k rotated
 *     keys  the layer's cache: keys (H, T, D), then values (H, T, D) at keys + T·C floats
 *     pos   the row's position: it attends over keys 0 .. pos
 *     out   the row's attention output (C)
 *     probs scratch of pos + 1 floats
 */
import type { ModelConfig } from "../config.ts";
import { EXP_SCRATCH, expF64, expLocalsOf } from "./exp-wasm.ts";
import { i32, namedLocals, op, seq, type WasmFunction } from "./wasm-assembler.ts";

/** `while (ptr < end) { body; ptr += step }` over i32 locals. */
function whileBelow(ptr: number, end: number, step: number, body: number[]): number[] {
  return seq(
    op.block,
    op.loop,
    seq(op.get(ptr), op.get(end), op.i32GeU, op.brIf(1)),
    body,
    seq(op.get(ptr), op.i32Const(step), op.i32Add, op.set(ptr), op.br(0)),
    op.end,
    op.end,
  );
}

const assembled = new Map<string, WasmFunction>();

/** The attention kernel for models of this config (one per shape, made once). */
export function attentionRowFunction(config: ModelConfig): WasmFunction {
  const { dModel: C, nHeads: H, maxSeqLen: T } = config;
  const key = `${C} ${H} ${T}`;
  let kernel = assembled.get(key);
  if (kernel === undefined) {
    kernel = assembleAttentionRow(C, H, T);
    assembled.set(key, kernel);
  }
  return kernel;
}

function assembleAttentionRow(C: number, H: number, T: number): WasmFunction {
  const D = C / H;
  const vectors = D >> 2; // 4-lane groups of a head
  const tail = D & 3; // the D mod 4 last lanes, one by one
  const scale = 1 / Math.sqrt(D);
  const range = (n: number, prefix: string): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
  const { at, params, locals } = namedLocals({
    params: { qkv: i32, keys: i32, pos: i32, out: i32, probs: i32 },
    i32: ["kr", "pr", "keysEnd", "probsEnd", "row", ...EXP_SCRATCH.i32],
    f32: ["s", "p", ...range(tail, "qs"), ...range(tail, "as")],
    v128: ["acc", "pv", ...range(vectors, "qv"), ...range(vectors, "av")],
    f64: ["v", "max", "sum", "inv", "x", "e", ...EXP_SCRATCH.f64],
  });
  const local = (name: string): number => (at as Record<string, number>)[name]!;
  const exp = expF64(expLocalsOf(at, at.x, at.e));
  const rowBytes = D * 4;
  const valuesOffset = T * C * 4; // values (H, T, D) follow keys (H, T, D)

  const head = (h: number): number[] => {
    const kOff = h * T * D * 4; // head h's keys, from `keys`
    const vOff = valuesOffset + kOff;
    const qOff = h * D * 4; // head h's q in the row; k at C, v at 2C after it
    // scores: acc = Σ_m q[4m..4m+3]·k[4m..4m+3] lane by lane, then the lanes, then the tail
    const score = seq(
      op.v128Zero,
      op.set(at.acc),
      ...range(vectors, "").map((_, m) =>
        seq(
          op.get(at.acc),
          op.get(local(`qv${m}`)),
          op.get(at.kr),
          op.v128Load(kOff + 16 * m),
          op.f32x4Mul,
          op.f32x4Add,
          op.set(at.acc),
        ),
      ),
      seq(op.get(at.acc), op.f32x4ExtractLane(0), op.get(at.acc), op.f32x4ExtractLane(1), op.f32Add),
      seq(op.get(at.acc), op.f32x4ExtractLane(2), op.get(at.acc), op.f32x4ExtractLane(3), op.f32Add),
      seq(op.f32Add, op.set(at.s)),
      ...range(tail, "").map((_, t) =>
        seq(
          op.get(local(`qs${t}`)),
          op.get(at.kr),
          op.f32Load(kOff + 16 * vectors + 4 * t),
          op.f32Mul,
          op.get(at.s),
          op.f32Add,
          op.set(at.s),
        ),
      ),
      // v = s·scale in double; probs[j] = float32(v); max = v > max ? v : max
      seq(op.get(at.s), op.f64PromoteF32, op.f64Const(scale), op.f64Mul, op.set(at.v)),
      seq(op.get(at.pr), op.get(at.v), op.f32DemoteF64, op.f32Store()),
      seq(op.get(at.v), op.get(at.max), op.get(at.v), op.get(at.max), op.f64Gt, op.select, op.set(at.max)),
    );
    // exponentials: probs[j] = float32(e), sum += e with e = exp(probs[j] − max)
    const exponential = seq(
      seq(op.get(at.pr), op.f32Load(), op.f64PromoteF32, op.get(at.max), op.f64Sub, op.set(at.x)),
      exp,
      seq(op.get(at.pr), op.get(at.e), op.f32DemoteF64, op.f32Store()),
      seq(op.get(at.sum), op.get(at.e), op.f64Add, op.set(at.sum)),
    );
    // output: acc += float32(probs[j]·inv) · v_j
    const weigh = seq(
      seq(op.get(at.pr), op.f32Load(), op.f64PromoteF32, op.get(at.inv), op.f64Mul, op.f32DemoteF64),
      seq(op.set(at.p), op.get(at.p), op.f32x4Splat, op.set(at.pv)),
      ...range(vectors, "").map((_, m) =>
        seq(
          op.get(local(`av${m}`)),
          op.get(at.pv),
          op.get(at.kr),
          op.v128Load(vOff + 16 * m),
          op.f32x4Mul,
          op.f32x4Add,
          op.set(local(`av${m}`)),
        ),
      ),
      ...range(tail, "").map((_, t) =>
        seq(
          op.get(at.p),
          op.get(at.kr),
          op.f32Load(vOff + 16 * vectors + 4 * t),
          op.f32Mul,
          op.get(local(`as${t}`)),
          op.f32Add,
          op.set(local(`as${t}`)),
        ),
      ),
    );
    return seq(
      // this row's key and value join the cache at `pos` (row = keys + pos·D floats)
      seq(op.get(at.keys), op.get(at.pos), op.i32Const(rowBytes), op.i32Mul, op.i32Add, op.set(at.row)),
      copyRowInto(kOff, (C + h * D) * 4),
      copyRowInto(vOff, (2 * C + h * D) * 4),
      // the head's query in registers
      ...range(vectors, "").map((_, m) =>
        seq(op.get(at.qkv), op.v128Load(qOff + 16 * m), op.set(local(`qv${m}`))),
      ),
      ...range(tail, "").map((_, t) =>
        seq(op.get(at.qkv), op.f32Load(qOff + 16 * vectors + 4 * t), op.set(local(`qs${t}`))),
      ),
      seq(op.f64Const(Number.NEGATIVE_INFINITY), op.set(at.max), op.get(at.keys), op.set(at.kr)),
      seq(op.get(at.probs), op.set(at.pr)),
      whileBelow(
        at.kr,
        at.keysEnd,
        rowBytes,
        seq(score, op.get(at.pr), op.i32Const(4), op.i32Add, op.set(at.pr)),
      ),
      seq(op.f64Const(0), op.set(at.sum), op.get(at.probs), op.set(at.pr)),
      whileBelow(at.pr, at.probsEnd, 4, exponential),
      seq(op.f64Const(1), op.get(at.sum), op.f64Div, op.set(at.inv)),
      ...range(vectors, "").map((_, m) => seq(op.v128Zero, op.set(local(`av${m}`)))),
      ...range(tail, "").map((_, t) => seq(op.f32Const0, op.set(local(`as${t}`)))),
      seq(op.get(at.keys), op.set(at.kr), op.get(at.probs), op.set(at.pr)),
      whileBelow(
        at.kr,
        at.keysEnd,
        rowBytes,
        seq(weigh, op.get(at.pr), op.i32Const(4), op.i32Add, op.set(at.pr)),
      ),
      ...range(vectors, "").map((_, m) =>
        seq(op.get(at.out), op.get(local(`av${m}`)), op.v128Store(qOff + 16 * m)),
      ),
      ...range(tail, "").map((_, t) =>
        seq(op.get(at.out), op.get(local(`as${t}`)), op.f32Store(qOff + 16 * vectors + 4 * t)),
      ),
    );

    /** Copies D floats from the row's qkv at byte offset `src` to the cache row at offset `dst` from `row`. */
    function copyRowInto(dst: number, src: number): number[] {
      return seq(
        ...range(vectors, "").map((_, m) =>
          seq(op.get(at.row), op.get(at.qkv), op.v128Load(src + 16 * m), op.v128Store(dst + 16 * m)),
        ),
        ...range(tail, "").map((_, t) =>
          seq(
            op.get(at.row),
            op.get(at.qkv),
            op.f32Load(src + 16 * vectors + 4 * t),
            op.f32Store(dst + 16 * vectors + 4 * t),
          ),
        ),
      );
    }
  };

  return {
    name: "attentionRow",
    params,
    locals,
    body: seq(
      // keys 0 .. pos: the loops stop at keysEnd (over key rows) and probsEnd (over scores)
      seq(op.get(at.pos), op.i32Const(1), op.i32Add, op.i32Const(rowBytes), op.i32Mul),
      seq(op.get(at.keys), op.i32Add, op.set(at.keysEnd)),
      seq(op.get(at.pos), op.i32Const(1), op.i32Add, op.i32Const(4), op.i32Mul),
      seq(op.get(at.probs), op.i32Add, op.set(at.probsEnd)),
      ...range(H, "").map((_, h) => head(h)),
    ),
  };
}
