/**
 * A tiny WebAssembly assembler: just the instructions the engine's kernels use, and a module writer
 * for functions over one imported memory. Kernels are written as TypeScript that emits these
 * instructions (see gemm-wasm.ts), so there is no binary blob and no compiler dependency.
 *
 * Reference: the WebAssembly core spec, binary format (sections 5.x) and the SIMD proposal opcodes.
 */

/** Value type: 32-bit integer. */
export const i32 = 0x7f;
/** Value type: 32-bit float. */
export const f32 = 0x7d;
/** Value type: 128-bit vector (four f32 lanes in these kernels). */
export const v128 = 0x7b;
/** Value type: 64-bit integer (bit patterns of doubles). */
export const i64 = 0x7e;
/** Value type: 64-bit float. */
export const f64 = 0x7c;
export type ValueType = typeof i32 | typeof f32 | typeof v128 | typeof i64 | typeof f64;

/** Unsigned LEB128. */
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

/** Signed LEB128. */
function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

const name = (s: string): number[] => [...uleb(s.length), ...new TextEncoder().encode(s)];
const vector = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const memarg = (alignLog2: number, offset: number): number[] => [alignLog2, ...uleb(offset)];
const simd = (opcode: number): number[] => [0xfd, ...uleb(opcode)];

/** Instructions, each as its bytes. `offset` is a constant added to the address operand. */
export const op = {
  // control
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  /** `if` whose arms leave nothing. */
  if: [0x04, 0x40],
  /** `if` whose arms leave one value of `type`. */
  ifValue: (type: ValueType): number[] => [0x04, type],
  else: [0x05],
  end: [0x0b],
  br: (depth: number): number[] => [0x0c, ...uleb(depth)],
  brIf: (depth: number): number[] => [0x0d, ...uleb(depth)],
  return: [0x0f],
  /** Of two values, the first if the i32 on top is not zero, else the second. */
  select: [0x1b],
  // locals
  get: (index: number): number[] => [0x20, ...uleb(index)],
  set: (index: number): number[] => [0x21, ...uleb(index)],
  // i32
  i32Const: (n: number): number[] => [0x41, ...sleb(n)],
  i32Add: [0x6a],
  i32Mul: [0x6c],
  i32Sub: [0x6b],
  i32And: [0x71],
  i32ShrU: [0x76],
  i32Eqz: [0x45],
  i32Eq: [0x46],
  i32LtS: [0x48],
  i32LtU: [0x49],
  i32GtS: [0x4a],
  i32GtU: [0x4b],
  i32GeS: [0x4e],
  i32GeU: [0x4f],
  i32WrapI64: [0xa7],
  i32TruncF64S: [0xaa],
  // i64
  i64Const: (n: number): number[] => [0x42, ...sleb(n)],
  i64ExtendI32S: [0xac],
  i64Shl: [0x86],
  i64ShrU: [0x88],
  i64ReinterpretF64: [0xbd],
  // f32
  f32Const0: [0x43, 0, 0, 0, 0],
  f32Load: (offset = 0): number[] => [0x2a, ...memarg(2, offset)],
  f32Store: (offset = 0): number[] => [0x38, ...memarg(2, offset)],
  f32Add: [0x92],
  f32Mul: [0x94],
  f32DemoteF64: [0xb6],
  // f64
  f64Load: (offset = 0): number[] => [0x2b, ...memarg(3, offset)],
  f64Store: (offset = 0): number[] => [0x39, ...memarg(3, offset)],
  f64Const: (x: number): number[] => [0x44, ...new Uint8Array(Float64Array.of(x).buffer)],
  f64Eq: [0x61],
  f64Ne: [0x62],
  f64Lt: [0x63],
  f64Gt: [0x64],
  f64Add: [0xa0],
  f64Sub: [0xa1],
  f64Mul: [0xa2],
  f64Div: [0xa3],
  f64Neg: [0x9a],
  f64PromoteF32: [0xbb],
  f64ConvertI32S: [0xb7],
  f64ReinterpretI64: [0xbf],
  // v128 of four f32 lanes
  v128Zero: [...simd(0x0c), ...new Array<number>(16).fill(0)],
  v128Load: (offset = 0): number[] => [...simd(0x00), ...memarg(4, offset)],
  /** Loads one f32 and copies it into all four lanes. */
  v128Load32Splat: (offset = 0): number[] => [...simd(0x09), ...memarg(2, offset)],
  v128Store: (offset = 0): number[] => [...simd(0x0b), ...memarg(4, offset)],
  /** Four f32 lanes all holding the f32 on top of the stack. */
  f32x4Splat: simd(0x13),
  /** One f32 lane of a v128. */
  f32x4ExtractLane: (lane: number): number[] => [...simd(0x1f), lane],
  f32x4Add: simd(0xe4),
  f32x4Mul: simd(0xe6),
  // v128 as a whole, or as bytes
  /** A constant v128 of four f32 lanes. */
  f32x4Const: (lanes: readonly number[]): number[] => [
    ...simd(0x0c),
    ...new Uint8Array(Float32Array.from(lanes).buffer),
  ],
  /** A constant v128 of two f64 lanes. */
  f64x2Const: (lanes: readonly number[]): number[] => [
    ...simd(0x0c),
    ...new Uint8Array(Float64Array.from(lanes).buffer),
  ],
  /** A constant v128 of two i64 lanes. */
  i64x2Const: (lanes: readonly number[]): number[] => [
    ...simd(0x0c),
    ...new Uint8Array(BigInt64Array.from(lanes.map(BigInt)).buffer),
  ],
  /** Loads 8 bytes into the low half, zeroing the high half. */
  v128Load64Zero: (offset = 0): number[] => [...simd(0x5d), ...memarg(3, offset)],
  /** Stores the low 8 bytes (lane 0 of 64 bits). */
  v128Store64Lane0: (offset = 0): number[] => [...simd(0x5b), ...memarg(3, offset), 0],
  /** Bytes of two v128s picked by 16 indices (0..15 the first, 16..31 the second). */
  i8x16Shuffle: (lanes: readonly number[]): number[] => [...simd(0x0d), ...lanes],
  v128And: simd(0x4e),
  v128Or: simd(0x50),
  /** (a & mask) | (b & ~mask) for a, b, mask on the stack. */
  v128Bitselect: simd(0x52),
  f32x4ReplaceLane: (lane: number): number[] => [...simd(0x20), lane],
  f32x4DemoteF64x2Zero: simd(0x5e),
  // v128 of two f64 lanes
  f64x2Splat: simd(0x14),
  f64x2ExtractLane: (lane: number): number[] => [...simd(0x21), lane],
  f64x2ReplaceLane: (lane: number): number[] => [...simd(0x22), lane],
  f64x2Eq: simd(0x47),
  f64x2Ne: simd(0x48),
  f64x2Lt: simd(0x49),
  f64x2Gt: simd(0x4a),
  f64x2Ge: simd(0x4c),
  f64x2PromoteLowF32x4: simd(0x5f),
  f64x2Abs: simd(0xec),
  f64x2Neg: simd(0xed),
  f64x2Add: simd(0xf0),
  f64x2Sub: simd(0xf1),
  f64x2Mul: simd(0xf2),
  f64x2Div: simd(0xf3),
  f64x2ConvertLowI32x4S: simd(0xfe),
  // v128 of integer lanes
  i32x4TruncSatF64x2SZero: simd(0xfc),
  i64x2AllTrue: simd(0xc3),
  i64x2ExtendLowI32x4S: simd(0xc7),
  i64x2Shl: simd(0xcb),
  i64x2Add: simd(0xce),
  i64x2Splat: simd(0x12),
};

/** Instructions in order, as one byte array: `seq(op.get(0), op.i32Const(4), op.i32Mul)`. */
export function seq(...instructions: number[][]): number[] {
  return instructions.flat();
}

/** `for (; counter + step <= limit; counter += step) { body }` over i32 locals `counter` and `limit`. */
export function forStep(counter: number, step: number, limit: number, body: number[]): number[] {
  return seq(
    op.block,
    op.loop,
    seq(op.get(counter), op.i32Const(step), op.i32Add, op.get(limit), op.i32GtS, op.brIf(1)),
    body,
    seq(op.get(counter), op.i32Const(step), op.i32Add, op.set(counter), op.br(0)),
    op.end,
    op.end,
  );
}

/** `while (ptr + span <= end) { body }` over i32 locals (compared unsigned: addresses); the body advances ptr. */
export function whileFits(ptr: number, span: number, end: number, body: number[]): number[] {
  return seq(
    op.block,
    op.loop,
    seq(op.get(ptr), op.i32Const(span), op.i32Add, op.get(end), op.i32GtU, op.brIf(1)),
    body,
    op.br(0),
    op.end,
    op.end,
  );
}

/** `ptr += bytes` for an i32 local. */
export function advance(ptr: number, bytes: number): number[] {
  return seq(op.get(ptr), op.i32Const(bytes), op.i32Add, op.set(ptr));
}

/** `local += other` for i32 locals. */
export function addLocal(local: number, other: number): number[] {
  return seq(op.get(local), op.get(other), op.i32Add, op.set(local));
}

/**
 * One exported function: its parameters (a count of i32s, or their types), its locals by type
 * (numbered after the parameters in the order i32, f32, v128, i64, f64), and its body (without the
 * final end). It returns nothing unless `result` names a type.
 */
export interface WasmFunction {
  name: string;
  params: number | readonly ValueType[];
  result?: ValueType;
  locals: { i32?: number; f32?: number; v128?: number; i64?: number; f64?: number };
  body: number[];
}

/**
 * Numbers named parameters and locals as a WasmFunction does: `names.x` is the index of local x.
 * `locals({ params: { out: i32 }, i32: ["r"], f64: ["sum"] })` gives out 0, r 1, sum 2.
 */
export function namedLocals<
  P extends string,
  I extends string = never,
  F extends string = never,
  V extends string = never,
  J extends string = never,
  D extends string = never,
>(spec: {
  params: Record<P, ValueType>;
  i32?: readonly I[];
  f32?: readonly F[];
  v128?: readonly V[];
  i64?: readonly J[];
  f64?: readonly D[];
}): { at: Record<P | I | F | V | J | D, number>; params: ValueType[]; locals: WasmFunction["locals"] } {
  const at = {} as Record<string, number>;
  let next = 0;
  const params = Object.entries(spec.params) as [string, ValueType][];
  const name = (local: string): void => {
    if (local in at) throw new Error(`two locals are named ${local}: rename one`);
    at[local] = next++;
  };
  for (const [local] of params) name(local);
  for (const group of [spec.i32, spec.f32, spec.v128, spec.i64, spec.f64])
    for (const local of group ?? []) name(local);
  return {
    at: at as Record<P | I | F | V | J | D, number>,
    params: params.map(([, type]) => type),
    locals: {
      i32: spec.i32?.length ?? 0,
      f32: spec.f32?.length ?? 0,
      v128: spec.v128?.length ?? 0,
      i64: spec.i64?.length ?? 0,
      f64: spec.f64?.length ?? 0,
    },
  };
}

/** Bytes of a module importing `env.memory` (`shared` needs a maximum) and exporting `functions`. */
export function assembleModule(
  functions: readonly WasmFunction[],
  memory: { initialPages: number; maximumPages?: number; shared?: boolean },
): Uint8Array {
  const types = functions.map((f) => {
    const params = typeof f.params === "number" ? new Array<number>(f.params).fill(i32) : [...f.params];
    const results = f.result === undefined ? [] : [f.result];
    return [0x60, ...vector(params.map((t) => [t])), ...vector(results.map((t) => [t]))];
  });
  const limits =
    memory.maximumPages === undefined
      ? [0x00, ...uleb(memory.initialPages)]
      : [memory.shared ? 0x03 : 0x01, ...uleb(memory.initialPages), ...uleb(memory.maximumPages)];
  const codes = functions.map((f) => {
    const groups = (
      [
        [f.locals.i32 ?? 0, i32],
        [f.locals.f32 ?? 0, f32],
        [f.locals.v128 ?? 0, v128],
        [f.locals.i64 ?? 0, i64],
        [f.locals.f64 ?? 0, f64],
      ] as const
    ).filter(([count]) => count > 0);
    const body = [...vector(groups.map(([count, type]) => [...uleb(count), type])), ...f.body, ...op.end];
    return [...uleb(body.length), ...body];
  });
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // magic, version 1
    ...section(1, vector(types)),
    ...section(2, vector([[...name("env"), ...name("memory"), 0x02, ...limits]])),
    ...section(3, vector(functions.map((_, i) => uleb(i)))),
    ...section(7, vector(functions.map((f, i) => [...name(f.name), 0x00, ...uleb(i)]))),
    ...section(10, vector(codes)),
  ]);
}
