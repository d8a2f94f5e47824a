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
export type ValueType = typeof i32 | typeof f32 | typeof v128;

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
  /** `if` whose arms leave one value of `type`. */
  ifValue: (type: ValueType): number[] => [0x04, type],
  else: [0x05],
  end: [0x0b],
  br: (depth: number): number[] => [0x0c, ...uleb(depth)],
  brIf: (depth: number): number[] => [0x0d, ...uleb(depth)],
  // locals
  get: (index: number): number[] => [0x20, ...uleb(index)],
  set: (index: number): number[] => [0x21, ...uleb(index)],
  // i32
  i32Const: (n: number): number[] => [0x41, ...sleb(n)],
  i32Add: [0x6a],
  i32Mul: [0x6c],
  i32GtS: [0x4a],
  i32GeS: [0x4e],
  // f32
  f32Const0: [0x43, 0, 0, 0, 0],
  f32Load: (offset = 0): number[] => [0x2a, ...memarg(2, offset)],
  f32Store: (offset = 0): number[] => [0x38, ...memarg(2, offset)],
  f32Add: [0x92],
  f32Mul: [0x94],
  // v128 of four f32 lanes
  v128Zero: [...simd(0x0c), ...new Array<number>(16).fill(0)],
  v128Load: (offset = 0): number[] => [...simd(0x00), ...memarg(4, offset)],
  /** Loads one f32 and copies it into all four lanes. */
  v128Load32Splat: (offset = 0): number[] => [...simd(0x09), ...memarg(2, offset)],
  v128Store: (offset = 0): number[] => [...simd(0x0b), ...memarg(4, offset)],
  /** One f32 lane of a v128. */
  f32x4ExtractLane: (lane: number): number[] => [...simd(0x1f), lane],
  f32x4Add: simd(0xe4),
  f32x4Mul: simd(0xe6),
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

/** `local += other` for i32 locals. */
export function addLocal(local: number, other: number): number[] {
  return seq(op.get(local), op.get(other), op.i32Add, op.set(local));
}

/** One exported function: its i32 parameters, its locals by type, and its body (without the final end). */
export interface WasmFunction {
  name: string;
  params: number;
  locals: { i32?: number; f32?: number; v128?: number };
  body: number[];
}

/** Bytes of a module importing `env.memory` (`shared` needs a maximum) and exporting `functions`. */
export function assembleModule(
  functions: readonly WasmFunction[],
  memory: { initialPages: number; maximumPages?: number; shared?: boolean },
): Uint8Array {
  const types = functions.map((f) => [0x60, ...uleb(f.params), ...new Array<number>(f.params).fill(i32), 0]);
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
