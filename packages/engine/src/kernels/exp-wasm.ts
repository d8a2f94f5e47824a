/**
 * exp(x) in double precision inside a WebAssembly kernel, giving JavaScript's Math.exp bit for bit:
 * V8 computes Math.exp with fdlibm's algorithm, and this is the same algorithm, step for step (its
 * reference is Math.exp itself; exp-wasm.test.ts compares the two on millions of arguments). The
 * kernels that port layers.ts's softmax and SwiGLU call it, so they keep the layers' exact results.
 *
 * fdlibm's method: write x = k·ln2 + r with |r| <= 0.5·ln2 (ln2 split in a high part, exact when
 * multiplied by k, and a low part); approximate exp(r) by 1 + r + r·c/(2 − c), where
 * c = r − r²·(P1 + r²·(P2 + ... + r²·P5)) is a degree-5 Remez fit; scale by 2^k through the
 * exponent bits. |x| < 2^-28 gives 1 + x; overflow gives Infinity, underflow 0, NaN stays NaN.
 */
import { f64, i32, namedLocals, op, seq, type WasmFunction } from "./wasm-assembler.ts";

/** The double whose bits are hi:lo (fdlibm gives its constants so: these bits are the intended values). */
function fromBits(hi: number, lo: number): number {
  const words = new Uint32Array([lo, hi]); // little-endian: the low word first
  return new Float64Array(words.buffer)[0]!;
}

const O_THRESHOLD = fromBits(0x40862e42, 0xfefa39ef); // 709.78...: above, exp overflows
const U_THRESHOLD = fromBits(0xc0874910, 0xd52d3051); // -745.13...: below, it underflows
const LN2_HI = fromBits(0x3fe62e42, 0xfee00000); // ln 2 to 32 bits: k·LN2_HI is exact
const LN2_LO = fromBits(0x3dea39ef, 0x35793c76); // ln 2 − LN2_HI
const INV_LN2 = fromBits(0x3ff71547, 0x652b82fe);
const P = [
  fromBits(0x3fc55555, 0x5555553e),
  fromBits(0xbf66c16c, 0x16bebd93),
  fromBits(0x3f11566a, 0xaf25de2c),
  fromBits(0xbebbbd41, 0xc5d26bf1),
  fromBits(0x3e663769, 0x72bea4d0),
];
const TWO_1023 = 2 ** 1023;
const TWO_M1000 = 2 ** -1000;

/** The locals `expF64` reads and writes: x (kept), out, and scratch. */
export interface ExpLocals {
  x: number; // f64, the argument (not changed)
  out: number; // f64, exp(x)
  hx: number; // i32
  xsb: number; // i32
  k: number; // i32
  hi: number; // f64
  lo: number; // f64
  r: number; // f64
  t: number; // f64
  c: number; // f64
}

/** Names of the scratch locals `expF64` needs beside x and out: declare them in the kernel's locals. */
export const EXP_SCRATCH = {
  i32: ["expHx", "expXsb", "expK"],
  f64: ["expHi", "expLo", "expR", "expT", "expC"],
} as const;

/** The ExpLocals of a kernel that declared EXP_SCRATCH's names, with its own x and out. */
export function expLocalsOf(at: Record<string, number>, x: number, out: number): ExpLocals {
  const local = (name: string): number => {
    const index = at[name];
    if (index === undefined) throw new Error(`the kernel declares no local ${name} for exp`);
    return index;
  };
  const [hx, xsb, k] = EXP_SCRATCH.i32.map(local) as [number, number, number];
  const [hi, lo, r, t, c] = EXP_SCRATCH.f64.map(local) as [number, number, number, number, number];
  return { x, out, hx, xsb, k, hi, lo, r, t, c };
}

/** 2^(k + bias) as a double, built from its exponent bits (k + bias in the normal range). */
function powerOfTwo(k: number, bias: number): number[] {
  return seq(
    op.get(k),
    op.i32Const(0x3ff + bias),
    op.i32Add,
    op.i64ExtendI32S,
    op.i64Const(52),
    op.i64Shl,
    op.f64ReinterpretI64,
  );
}

/** Instructions that set local `out` to exp(local `x`), both f64, exactly as Math.exp does. */
export function expF64(l: ExpLocals): number[] {
  const { x, out, hx, xsb, k, hi, lo, r, t, c } = l;
  const constant = op.f64Const;
  // P1 + t·(P2 + t·(P3 + t·(P4 + t·P5))), innermost first
  let poly = constant(P[4]!);
  for (let i = 3; i >= 0; i--) poly = seq(constant(P[i]!), op.get(t), poly, op.f64Mul, op.f64Add);
  const done = (depth: number, value: number[]): number[] => seq(value, op.set(out), op.br(depth));
  return seq(
    op.block,
    // hx = the high word of |x|, xsb = its sign
    seq(op.get(x), op.i64ReinterpretF64, op.i64Const(32), op.i64ShrU, op.i32WrapI64, op.set(hx)),
    seq(op.get(hx), op.i32Const(31), op.i32ShrU, op.set(xsb)),
    seq(op.get(hx), op.i32Const(0x7fffffff), op.i32And, op.set(hx)),
    // |x| >= 709.78: NaN, Infinity, overflow, underflow
    seq(op.get(hx), op.i32Const(0x40862e42), op.i32GeU, op.if),
    seq(op.get(x), op.get(x), op.f64Ne, op.if, done(2, seq(op.get(x), op.get(x), op.f64Add)), op.end),
    seq(op.get(x), constant(O_THRESHOLD), op.f64Gt, op.if, done(2, constant(Infinity)), op.end),
    seq(op.get(x), constant(U_THRESHOLD), op.f64Lt, op.if, done(2, constant(0)), op.end),
    op.end,
    // |x| < 2^-28: 1 + x
    seq(op.get(hx), op.i32Const(0x3e300000), op.i32LtU, op.if),
    done(1, seq(constant(1), op.get(x), op.f64Add)),
    op.end,
    // argument reduction: r = hi − lo = x − k·ln2 (k = 0 and r = x for |x| <= 0.5·ln2)
    seq(op.i32Const(0), op.set(k), op.get(x), op.set(r)),
    seq(constant(0), op.set(hi), constant(0), op.set(lo)),
    seq(op.get(hx), op.i32Const(0x3fd62e42), op.i32GtU, op.if),
    seq(op.get(x), constant(1), op.f64Eq, op.if, done(2, constant(Math.E)), op.end), // fdlibm's special case
    seq(op.get(hx), op.i32Const(0x3ff0a2b2), op.i32LtU, op.if),
    // |x| < 1.5·ln2: k = ±1
    seq(op.i32Const(1), op.get(xsb), op.i32Sub, op.get(xsb), op.i32Sub, op.set(k)),
    seq(op.get(x), constant(-LN2_HI), constant(LN2_HI), op.get(xsb), op.select, op.f64Sub, op.set(hi)),
    seq(constant(-LN2_LO), constant(LN2_LO), op.get(xsb), op.select, op.set(lo)),
    op.else,
    // k = trunc(x/ln2 ± 0.5), rounding half away from zero
    seq(constant(INV_LN2), op.get(x), op.f64Mul, constant(-0.5), constant(0.5), op.get(xsb), op.select),
    seq(op.f64Add, op.i32TruncF64S, op.set(k)),
    seq(op.get(x), op.get(k), op.f64ConvertI32S, constant(LN2_HI), op.f64Mul, op.f64Sub, op.set(hi)),
    seq(op.get(k), op.f64ConvertI32S, constant(LN2_LO), op.f64Mul, op.set(lo)),
    op.end,
    seq(op.get(hi), op.get(lo), op.f64Sub, op.set(r)),
    op.end,
    // c = r − t·poly(t), t = r²
    seq(op.get(r), op.get(r), op.f64Mul, op.set(t)),
    seq(op.get(r), op.get(t), poly, op.f64Mul, op.f64Sub, op.set(c)),
    // k = 0: 1 − (r·c/(c − 2) − r)
    seq(op.get(k), op.i32Eqz, op.if),
    seq(constant(1), op.get(r), op.get(c), op.f64Mul, op.get(c), constant(2), op.f64Sub, op.f64Div),
    done(1, seq(op.get(r), op.f64Sub, op.f64Sub)),
    op.end,
    // y = 1 − ((lo − r·c/(2 − c)) − hi), kept in t, then y·2^k
    seq(constant(1), op.get(lo), op.get(r), op.get(c), op.f64Mul, constant(2), op.get(c), op.f64Sub),
    seq(op.f64Div, op.f64Sub, op.get(hi), op.f64Sub, op.f64Sub, op.set(t)),
    seq(op.get(k), op.i32Const(-1021), op.i32GeS, op.if),
    seq(op.get(k), op.i32Const(1024), op.i32Eq, op.if),
    done(2, seq(op.get(t), constant(2), op.f64Mul, constant(TWO_1023), op.f64Mul)),
    op.end,
    done(1, seq(op.get(t), powerOfTwo(k, 0), op.f64Mul)),
    op.end,
    // 2^k would be subnormal: scale in two steps
    seq(op.get(t), powerOfTwo(k, 1000), op.f64Mul, constant(TWO_M1000), op.f64Mul, op.set(out)),
    op.end,
  );
}

/** The locals `expF64x2` reads and writes: v128s of two f64 lanes, and the scalar ones of `expF64`. */
export interface ExpPairLocals {
  x: number; // v128, the arguments (not changed)
  out: number; // v128, their exponentials
  ax: number; // v128 scratch
  k: number; // v128 scratch
  kf: number; // v128 scratch
  hi: number; // v128 scratch
  lo: number; // v128 scratch
  r: number; // v128 scratch
  t: number; // v128 scratch
  c: number; // v128 scratch
  scalar: ExpLocals; // for lanes off the main path, one at a time
}

/** Names of the v128 scratch locals `expF64x2` needs beside x and out. */
export const EXP_PAIR_SCRATCH = [
  "expPairAx",
  "expPairK",
  "expPairKf",
  "expPairHi",
  "expPairLo",
  "expPairR",
  "expPairT",
  "expPairC",
] as const;

/** The ExpPairLocals of a kernel that declared EXP_PAIR_SCRATCH's names. */
export function expPairLocalsOf(
  at: Record<string, number>,
  x: number,
  out: number,
  scalar: ExpLocals,
): ExpPairLocals {
  const local = (name: string): number => {
    const index = at[name];
    if (index === undefined) throw new Error(`the kernel declares no local ${name} for exp`);
    return index;
  };
  const [ax, k, kf, hi, lo, r, t, c] = EXP_PAIR_SCRATCH.map(local) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return { x, out, ax, k, kf, hi, lo, r, t, c, scalar };
}

const pair = (x: number): number[] => op.f64x2Const([x, x]);
const HALF_LN2_UP = fromBits(0x3fd62e43, 0); // |x| >= this ⇔ fdlibm reduces x (high word > 0x3fd62e42)

/**
 * Instructions that set v128 `out` to exp of both f64 lanes of v128 `x`, bit for bit as `expF64`
 * (and Math.exp). When both lanes have 2^-28 <= |x| < 700 and x ≠ 1 (softmax's and SwiGLU's
 * arguments, nearly always), they take fdlibm's main path together: its cases |x| <= 0.5·ln2 and
 * |x| < 1.5·ln2 are that path with k = 0 and k = ±1, which gives the same bits (c − 2 = −(2 − c)
 * and the divisions round alike). Otherwise each lane goes through `expF64` in turn.
 */
export function expF64x2(l: ExpPairLocals): number[] {
  const { x, out, ax, k, kf, hi, lo, r, t, c, scalar } = l;
  let poly = pair(P[4]!);
  for (let i = 3; i >= 0; i--) poly = seq(pair(P[i]!), op.get(t), poly, op.f64x2Mul, op.f64x2Add);
  const lane = (i: number): number[] =>
    seq(
      seq(op.get(x), op.f64x2ExtractLane(i), op.set(scalar.x)),
      expF64(scalar),
      seq(op.get(out), op.get(scalar.out), op.f64x2ReplaceLane(i), op.set(out)),
    );
  return seq(
    seq(op.get(x), op.f64x2Abs, op.set(ax)),
    seq(op.get(ax), pair(2 ** -28), op.f64x2Ge, op.get(ax), pair(700), op.f64x2Lt, op.v128And),
    seq(op.get(x), pair(1), op.f64x2Ne, op.v128And, op.i64x2AllTrue, op.if),
    // k = trunc(x/ln2 ± 0.5) (the sign of x on 0.5), kept only where |x| > 0.5·ln2
    seq(op.get(x), pair(INV_LN2), op.f64x2Mul, op.get(x), pair(-0), op.v128And, pair(0.5), op.v128Or),
    seq(op.f64x2Add, op.i32x4TruncSatF64x2SZero, op.set(k)),
    seq(op.get(ax), pair(HALF_LN2_UP), op.f64x2Ge, op.set(ax)), // all ones on the reduced lanes
    seq(op.get(k), op.f64x2ConvertLowI32x4S, op.get(ax), op.v128And, op.set(kf)),
    seq(op.get(k), op.i64x2ExtendLowI32x4S, op.get(ax), op.v128And, op.set(k)),
    // r = hi − lo = x − k·ln2
    seq(op.get(x), op.get(kf), pair(LN2_HI), op.f64x2Mul, op.f64x2Sub, op.set(hi)),
    seq(op.get(kf), pair(LN2_LO), op.f64x2Mul, op.set(lo)),
    seq(op.get(hi), op.get(lo), op.f64x2Sub, op.set(r)),
    // c = r − t·poly(t), t = r²
    seq(op.get(r), op.get(r), op.f64x2Mul, op.set(t)),
    seq(op.get(r), op.get(t), poly, op.f64x2Mul, op.f64x2Sub, op.set(c)),
    // (1 − ((lo − r·c/(2 − c)) − hi)) · 2^k, 2^k from its exponent bits
    seq(pair(1), op.get(lo), op.get(r), op.get(c), op.f64x2Mul, pair(2), op.get(c), op.f64x2Sub),
    seq(op.f64x2Div, op.f64x2Sub, op.get(hi), op.f64x2Sub, op.f64x2Sub),
    seq(op.get(k), op.i64x2Const([1023, 1023]), op.i64x2Add, op.i32Const(52), op.i64x2Shl),
    seq(op.f64x2Mul, op.set(out)),
    op.else,
    lane(0),
    lane(1),
    op.end,
  );
}

const expPairNames = namedLocals({
  params: { at: i32 },
  i32: EXP_SCRATCH.i32,
  f64: ["sx", "sout", ...EXP_SCRATCH.f64],
  v128: ["x", "out", ...EXP_PAIR_SCRATCH],
});

/** expPair(at): the two doubles at byte address `at` replaced by their exponentials, for the tests. */
export const expPairFunction: WasmFunction = {
  name: "expPair",
  params: expPairNames.params,
  locals: expPairNames.locals,
  body: (() => {
    const { at } = expPairNames;
    const scalar = expLocalsOf(at, at.sx, at.sout);
    return seq(
      seq(op.get(at.at), op.v128Load(), op.set(at.x)),
      expF64x2(expPairLocalsOf(at, at.x, at.out, scalar)),
      seq(op.get(at.at), op.get(at.out), op.v128Store()),
    );
  })(),
};

const expNames = namedLocals({
  params: { x: f64 },
  i32: EXP_SCRATCH.i32,
  f64: ["out", ...EXP_SCRATCH.f64],
});

/** exp(x) -> f64 as a function of its own, for the tests that compare it with Math.exp. */
export const expFunction: WasmFunction = {
  name: "exp",
  params: expNames.params,
  result: f64,
  locals: expNames.locals,
  body: seq(expF64(expLocalsOf(expNames.at, expNames.at.x, expNames.at.out)), op.get(expNames.at.out)),
};
