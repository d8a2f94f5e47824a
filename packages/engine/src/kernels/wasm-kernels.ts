/**
 * The WebAssembly kernels at run time: one module with both SIMD products (gemm-wasm.ts for A · B,
 * gemm-nt-wasm.ts for A · Bᵀ), compiled once per thread, and `matmulWasm`, which copies operands
 * into the module's memory, runs the right kernel and copies the result out. The copies cost a few
 * percent next to the products; in exchange every buffer of the model stays an ordinary array.
 */
import { EngineError } from "../errors.ts";
import { gemmNTFunction } from "./gemm-nt-wasm.ts";
import { gemmFunction } from "./gemm-wasm.ts";
import { assembleModule } from "./wasm-assembler.ts";

const MODULE = assembleModule([gemmFunction, gemmNTFunction], { initialPages: 1 });

/** The part of the WebAssembly JS API used here (the shared tsconfig has no DOM lib to declare it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Memory: new (descriptor: { initial: number }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** The kernel of this thread: compiled once, with its own memory that operands are copied into. */
interface Kernel {
  memory: WasmMemory;
  heap: Float32Array;
  gemm: (...args: number[]) => void;
  gemmNT: (...args: number[]) => void;
}
let kernel: Kernel | null = null;

function kernelWithRoom(floats: number): Kernel {
  if (kernel === null) {
    const memory = new wasm.Memory({ initial: 1 });
    const instance = new wasm.Instance(new wasm.Module(MODULE), { env: { memory } });
    const { gemm, gemmNT } = instance.exports as Pick<Kernel, "gemm" | "gemmNT">;
    kernel = { memory, heap: new Float32Array(memory.buffer), gemm, gemmNT };
  }
  const bytes = floats * 4;
  if (kernel.memory.buffer.byteLength < bytes) {
    kernel.memory.grow(Math.ceil((bytes - kernel.memory.buffer.byteLength) / 65536));
    kernel.heap = new Float32Array(kernel.memory.buffer);
  }
  return kernel;
}

/** n rounded up to a multiple of 4 (floats), so each operand starts 16-byte aligned. */
function roundUp4(n: number): number {
  return (n + 3) & ~3;
}

/**
 * out (R, Q) = op(a) · op(b), or out += when `accumulate`; op(a) is a (R, K), or aᵀ for a (K, R)
 * when `transA`; op(b) is b (K, Q), or bᵀ for b (Q, K) when `transB`. Not both transposed.
 */
export function matmulWasm(
  out: Float32Array,
  a: Float32Array,
  b: Float32Array,
  rows: number,
  cols: number,
  inner: number,
  transA: boolean,
  transB: boolean,
  accumulate: boolean,
): void {
  if (transA && transB) {
    throw new EngineError("matmulWasm takes at most one transposed operand: transpose one of them first");
  }
  // heap layout: [ A (rows·inner) | B (inner·cols) | out (rows·cols) ], each 16-byte aligned
  const aAt = 0;
  const bAt = roundUp4(rows * inner);
  const outAt = bAt + roundUp4(inner * cols);
  const { heap, gemm, gemmNT } = kernelWithRoom(outAt + rows * cols);
  heap.set(a.subarray(0, rows * inner), aAt);
  heap.set(b.subarray(0, inner * cols), bAt);
  if (accumulate) heap.set(out.subarray(0, rows * cols), outAt);
  const acc = accumulate ? 1 : 0;
  if (transB) gemmNT(outAt * 4, aAt * 4, bAt * 4, rows, cols, inner, acc);
  else if (transA) gemm(outAt * 4, aAt * 4, bAt * 4, rows, cols, inner, 4, rows * 4, acc);
  else gemm(outAt * 4, aAt * 4, bAt * 4, rows, cols, inner, inner * 4, 4, acc);
  out.set(heap.subarray(outAt, outAt + rows * cols));
}
