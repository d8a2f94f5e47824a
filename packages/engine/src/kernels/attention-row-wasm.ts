/**
 * The SIMD kernel of one new row's attention over its KV cache, all heads, for sampling: it stores
 * the row's keys and values at its position, then for each head computes the scores q·kⱼ of every
 * position up to its own, their softmax and the weighted sum of the values. Its reference is what
 * the training forward does for that row (layers.ts: gemmNT for the scores, softmaxRow, gemm for
 * P·V), and it repeats that arithmetic step for step, so its output is the same bit for bit:
 *   - a score sums four lanes over k ≡ 0..3 (mod 4), then (lane0 + lane1) + (lane2 + lane3), then
 *     the D mod 4 last terms one by one, as gemm-nt-wasm.ts does; four keys are scored together,
 *     their lanes transposed so that one vector addition sums the same pairs for all four;
 *   - the softmax scales and takes the max in double precision, rounds scores to float32, sums the
 *     exponentials (Math.exp's bits, two at a time, exp-wasm.ts) in double precision in key order,
 *     and rounds each probability after multiplying by 1/sum, as softmaxRow does;
 *   - the output sums p·v over keys in order with float32 rounding after each step, as gemm-wasm.ts.
 *
 * It is assembled for one model shape (heads, head size and context are constants in the code):
 *
 *   attentionRow(qkv, keys, pos, out, probs)     (byte addresses)
 *     qkv   the row's q, k, v (3C), q and k rotated
 *     keys  the layer's cache: keys (H, T, D), then values (H, T, D) at keys + T·C floats
 *     pos   the row's position: it attends over keys 0 .. pos
 *     out   the row's attention output (C)
 *     probs scratch of pos + 1 floats
 */
import type { ModelConfig } from "../config.ts";
import { EXP_PAIR_SCRATCH, EXP_SCRATCH, expF64, expF64x2, expLocalsOf, expPairLocalsOf } from "./exp-wasm.ts";
import { advance, i32, namedLocals, op, seq, type WasmFunction, whileFits } from "./wasm-assembler.ts";

/** i8x16 shuffle indices that pick four f32 lanes (0..3 from the first vector, 4..7 the second). */
function lanes(...picks: number[]): number[] {
  return picks.flatMap((lane) => [lane * 4, lane * 4 + 1, lane * 4 + 2, lane * 4 + 3]);
}

const assembled = new Map<string, WasmFunction>();

/** The attention kernel for models of this shape (made once per shape). */
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
  const rowBytes = D * 4;
  const valuesOffset = T * C * 4; // values (H, T, D) follow keys (H, T, D)
  const count = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
  const named = <Prefix extends string>(n: number, prefix: Prefix): `${Prefix}${number}`[] =>
    count(n).map((i) => `${prefix}${i}` as const);
  const { at, params, locals } = namedLocals({
    params: { qkv: i32, keys: i32, pos: i32, out: i32, probs: i32 },
    i32: ["kr", "pr", "keysEnd", "probsEnd", "row", ...EXP_SCRATCH.i32],
    f32: ["s", "p", ...named(tail, "qs"), ...named(tail, "as")],
    v128: [
      "vs",
      "pv",
      "maxv",
      "sumv",
      "ex",
      "ee",
      ...named(4, "acc"),
      ...named(vectors, "qv"),
      ...named(vectors, "av"),
      ...EXP_PAIR_SCRATCH,
    ],
    f64: ["v", "max", "sum", "inv", "x", "e", ...EXP_SCRATCH.f64],
  });
  const local = (name: string): number => (at as Record<string, number>)[name]!;
  const acc = (i: number): number => local(`acc${i}`);
  const expScalar = expLocalsOf(at, at.x, at.e);
  const expPair = expPairLocalsOf(at, local("ex"), local("ee"), expScalar);
  const get = op.get;

  const head = (h: number): number[] => {
    const kOff = h * T * D * 4; // head h's keys, from `keys`
    const vOff = valuesOffset + kOff;
    const qOff = h * D * 4; // head h's q in the row (and its output's place); k at C, v at 2C after it
    const tailAt = (t: number): number => 16 * vectors + 4 * t;

    /** Copies D floats from the row's qkv at byte offset `src` to the cache row at offset `dst` from `row`. */
    const copyRowInto = (dst: number, src: number): number[] =>
      seq(
        ...count(vectors).map((m) =>
          seq(get(at.row), get(at.qkv), op.v128Load(src + 16 * m), op.v128Store(dst + 16 * m)),
        ),
        ...count(tail).map((t) =>
          seq(get(at.row), get(at.qkv), op.f32Load(src + tailAt(t)), op.f32Store(dst + tailAt(t))),
        ),
      );

    // four keys at once: lane sums per key, transposed so lane l of vector l holds each key's lane l
    const scoreFour = seq(
      ...count(4).map((i) =>
        seq(
          op.v128Zero,
          op.set(acc(i)),
          ...count(vectors).map((m) =>
            seq(
              get(acc(i)),
              get(local(`qv${m}`)),
              get(at.kr),
              op.v128Load(kOff + i * rowBytes + 16 * m),
              op.f32x4Mul,
              op.f32x4Add,
              op.set(acc(i)),
            ),
          ),
        ),
      ),
      // [a0 a1 a2 a3] per key → columns: (col0 + col1) + (col2 + col3) is each key's lane sum
      seq(get(acc(0)), get(acc(1)), op.i8x16Shuffle(lanes(0, 4, 1, 5)), op.set(local("ex"))), // a0₀ a1₀ a0₁ a1₁
      seq(get(acc(0)), get(acc(1)), op.i8x16Shuffle(lanes(2, 6, 3, 7)), op.set(local("ee"))), // a0₂ a1₂ a0₃ a1₃
      seq(get(acc(2)), get(acc(3)), op.i8x16Shuffle(lanes(0, 4, 1, 5)), op.set(acc(0))), // a2₀ a3₀ a2₁ a3₁
      seq(get(acc(2)), get(acc(3)), op.i8x16Shuffle(lanes(2, 6, 3, 7)), op.set(acc(1))), // a2₂ a3₂ a2₃ a3₃
      seq(get(local("ex")), get(acc(0)), op.i8x16Shuffle(lanes(0, 1, 4, 5))), // lane 0 of each key
      seq(get(local("ex")), get(acc(0)), op.i8x16Shuffle(lanes(2, 3, 6, 7)), op.f32x4Add), // + lane 1
      seq(get(local("ee")), get(acc(1)), op.i8x16Shuffle(lanes(0, 1, 4, 5))), // lane 2
      seq(get(local("ee")), get(acc(1)), op.i8x16Shuffle(lanes(2, 3, 6, 7)), op.f32x4Add), // + lane 3
      seq(op.f32x4Add, op.set(at.vs)),
      // the D mod 4 last terms: s = q_t·k_t + s, four keys in the lanes
      ...count(tail).map((t) =>
        seq(
          seq(get(local(`qs${t}`)), op.f32x4Splat),
          seq(
            op.v128Zero,
            ...count(4).map((i) =>
              seq(get(at.kr), op.f32Load(kOff + i * rowBytes + tailAt(t)), op.f32x4ReplaceLane(i)),
            ),
          ),
          seq(op.f32x4Mul, get(at.vs), op.f32x4Add, op.set(at.vs)),
        ),
      ),
      // v = s·scale in double, two keys per vector; probs = float32(v); maxv = v > maxv ? v : maxv
      seq(
        get(at.vs),
        op.f64x2PromoteLowF32x4,
        op.f64x2Const([scale, scale]),
        op.f64x2Mul,
        op.set(local("ex")),
      ),
      seq(get(at.vs), get(at.vs), op.i8x16Shuffle(lanes(2, 3, 2, 3)), op.f64x2PromoteLowF32x4),
      seq(op.f64x2Const([scale, scale]), op.f64x2Mul, op.set(local("ee"))),
      seq(get(at.pr), get(local("ex")), op.f32x4DemoteF64x2Zero, get(local("ee")), op.f32x4DemoteF64x2Zero),
      seq(op.i8x16Shuffle(lanes(0, 1, 4, 5)), op.v128Store()),
      ...["ex", "ee"].map((name) =>
        seq(
          get(local(name)),
          get(at.maxv),
          get(local(name)),
          get(at.maxv),
          op.f64x2Gt,
          op.v128Bitselect,
          op.set(at.maxv),
        ),
      ),
    );

    // one key: its lane sum, tail and scaled score as above, one lane at a time
    const scoreOne = seq(
      op.v128Zero,
      op.set(acc(0)),
      ...count(vectors).map((m) =>
        seq(
          get(acc(0)),
          get(local(`qv${m}`)),
          get(at.kr),
          op.v128Load(kOff + 16 * m),
          op.f32x4Mul,
          op.f32x4Add,
          op.set(acc(0)),
        ),
      ),
      seq(get(acc(0)), op.f32x4ExtractLane(0), get(acc(0)), op.f32x4ExtractLane(1), op.f32Add),
      seq(get(acc(0)), op.f32x4ExtractLane(2), get(acc(0)), op.f32x4ExtractLane(3), op.f32Add),
      seq(op.f32Add, op.set(at.s)),
      ...count(tail).map((t) =>
        seq(
          get(local(`qs${t}`)),
          get(at.kr),
          op.f32Load(kOff + tailAt(t)),
          op.f32Mul,
          get(at.s),
          op.f32Add,
          op.set(at.s),
        ),
      ),
      seq(get(at.s), op.f64PromoteF32, op.f64Const(scale), op.f64Mul, op.set(at.v)),
      seq(get(at.pr), get(at.v), op.f32DemoteF64, op.f32Store()),
      seq(get(at.v), get(at.max), get(at.v), get(at.max), op.f64Gt, op.select, op.set(at.max)),
    );

    // exponentials two at a time: probs = float32(e), sum += e in key order, e = exp(probs − max)
    const exponentialTwo = seq(
      seq(get(at.pr), op.v128Load64Zero(), op.f64x2PromoteLowF32x4, get(at.max), op.f64x2Splat, op.f64x2Sub),
      op.set(local("ex")),
      expF64x2(expPair),
      seq(get(at.pr), get(local("ee")), op.f32x4DemoteF64x2Zero, op.v128Store64Lane0()),
      seq(get(at.sum), get(local("ee")), op.f64x2ExtractLane(0), op.f64Add),
      seq(get(local("ee")), op.f64x2ExtractLane(1), op.f64Add, op.set(at.sum)),
    );
    const exponentialOne = seq(
      seq(get(at.pr), op.f32Load(), op.f64PromoteF32, get(at.max), op.f64Sub, op.set(at.x)),
      expF64(expScalar),
      seq(get(at.pr), get(at.e), op.f32DemoteF64, op.f32Store()),
      seq(get(at.sum), get(at.e), op.f64Add, op.set(at.sum)),
    );
    // probabilities: probs = float32(probs · inv), two at a time
    const normalizeTwo = seq(
      seq(get(at.pr), get(at.pr), op.v128Load64Zero(), op.f64x2PromoteLowF32x4, get(at.inv), op.f64x2Splat),
      seq(op.f64x2Mul, op.f32x4DemoteF64x2Zero, op.v128Store64Lane0()),
    );
    const normalizeOne = seq(
      seq(get(at.pr), get(at.pr), op.f32Load(), op.f64PromoteF32, get(at.inv), op.f64Mul, op.f32DemoteF64),
      op.f32Store(),
    );
    // output: acc += p_j · v_j, key by key
    const weigh = seq(
      seq(get(at.pr), op.v128Load32Splat(), op.set(at.pv)),
      ...count(vectors).map((m) =>
        seq(
          get(local(`av${m}`)),
          get(at.pv),
          get(at.kr),
          op.v128Load(vOff + 16 * m),
          op.f32x4Mul,
          op.f32x4Add,
          op.set(local(`av${m}`)),
        ),
      ),
      ...count(tail).map((t) =>
        seq(
          seq(get(at.pr), op.f32Load(), get(at.kr), op.f32Load(vOff + tailAt(t)), op.f32Mul),
          seq(get(local(`as${t}`)), op.f32Add, op.set(local(`as${t}`))),
        ),
      ),
    );

    return seq(
      // this row's key and value join the cache at `pos`
      seq(get(at.keys), get(at.pos), op.i32Const(rowBytes), op.i32Mul, op.i32Add, op.set(at.row)),
      copyRowInto(kOff, (C + h * D) * 4),
      copyRowInto(vOff, (2 * C + h * D) * 4),
      // the head's query in registers
      ...count(vectors).map((m) => seq(get(at.qkv), op.v128Load(qOff + 16 * m), op.set(local(`qv${m}`)))),
      ...count(tail).map((t) => seq(get(at.qkv), op.f32Load(qOff + tailAt(t)), op.set(local(`qs${t}`)))),
      // scores and their max: four keys at a time, then one at a time
      seq(op.f64x2Const([-Infinity, -Infinity]), op.set(at.maxv), op.f64Const(-Infinity), op.set(at.max)),
      seq(get(at.keys), op.set(at.kr), get(at.probs), op.set(at.pr)),
      whileFits(
        at.kr,
        4 * rowBytes,
        at.keysEnd,
        seq(scoreFour, advance(at.pr, 16), advance(at.kr, 4 * rowBytes)),
      ),
      whileFits(at.kr, rowBytes, at.keysEnd, seq(scoreOne, advance(at.pr, 4), advance(at.kr, rowBytes))),
      ...[0, 1].map((lane) =>
        seq(
          seq(get(at.maxv), op.f64x2ExtractLane(lane), op.set(at.v)),
          seq(get(at.v), get(at.max), get(at.v), get(at.max), op.f64Gt, op.select, op.set(at.max)),
        ),
      ),
      // exponentials and their sum in key order
      seq(op.f64Const(0), op.set(at.sum), get(at.probs), op.set(at.pr)),
      whileFits(at.pr, 8, at.probsEnd, seq(exponentialTwo, advance(at.pr, 8))),
      whileFits(at.pr, 4, at.probsEnd, seq(exponentialOne, advance(at.pr, 4))),
      seq(op.f64Const(1), get(at.sum), op.f64Div, op.set(at.inv)),
      seq(get(at.probs), op.set(at.pr)),
      whileFits(at.pr, 8, at.probsEnd, seq(normalizeTwo, advance(at.pr, 8))),
      whileFits(at.pr, 4, at.probsEnd, seq(normalizeOne, advance(at.pr, 4))),
      // the weighted sum of the values
      ...count(vectors).map((m) => seq(op.v128Zero, op.set(local(`av${m}`)))),
      ...count(tail).map((t) => seq(op.f32Const0, op.set(local(`as${t}`)))),
      seq(get(at.keys), op.set(at.kr), get(at.probs), op.set(at.pr)),
      whileFits(at.kr, rowBytes, at.keysEnd, seq(weigh, advance(at.pr, 4), advance(at.kr, rowBytes))),
      ...count(vectors).map((m) => seq(get(at.out), get(local(`av${m}`)), op.v128Store(qOff + 16 * m))),
      ...count(tail).map((t) => seq(get(at.out), get(local(`as${t}`)), op.f32Store(qOff + tailAt(t)))),
    );
  };

  return {
    name: "attentionRow",
    params,
    locals,
    body: seq(
      // keys 0 .. pos: the loops stop at keysEnd (over key rows) and probsEnd (over scores)
      seq(get(at.pos), op.i32Const(1), op.i32Add, op.i32Const(rowBytes), op.i32Mul),
      seq(get(at.keys), op.i32Add, op.set(at.keysEnd)),
      seq(get(at.pos), op.i32Const(1), op.i32Add, op.i32Const(4), op.i32Mul),
      seq(get(at.probs), op.i32Add, op.set(at.probsEnd)),
      ...count(H).map((h) => head(h)),
    ),
  };
}
