/**
 * A WebAssembly memory with the engine's SIMD kernels instantiated over it: operands that live in
 * the memory are multiplied in place, by float offset, with no copy in or out. `matmulWasm`
 * (wasm-kernels.ts) copies ordinary arrays into a heap of its thread; the sampler's fast forward
 * (sampling/wasm-cached-forward.ts) keeps its weights, activations and KV caches in one for good.
 */
import { EngineError } from "../errors.ts";
import { gemmNTFunction } from "./gemm-nt-wasm.ts";
import { gemmFunction } from "./gemm-wasm.ts";
import { assembleModule, type WasmFunction } from "./wasm-assembler.ts";

const PAGE_FLOATS = 65536 / 4;

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

const compiled = new Map<string, object>(); // modules of this thread, by the kernels they hold
const kernelIds = new WeakMap<WasmFunction, number>();
let nextKernelId = 0;

/** The compiled module of the two products and `kernels`, assembled once per thread and set of kernels. */
function moduleOf(kernels: readonly WasmFunction[]): object {
  const key = kernels
    .map((k) => {
      if (!kernelIds.has(k)) kernelIds.set(k, nextKernelId++);
      return kernelIds.get(k);
    })
    .join(",");
  let module = compiled.get(key);
  if (module === undefined) {
    module = new wasm.Module(assembleModule([gemmFunction, gemmNTFunction, ...kernels], { initialPages: 1 }));
    compiled.set(key, module);
  }
  return module;
}

/** Options of a WasmHeap. */
export interface WasmHeapOptions {
  /** Room to start with, in floats (default: one page). */
  floats?: number;
  /** More kernels to assemble beside the two products, called through `kernel(name)`. */
  kernels?: readonly WasmFunction[];
}

/** One memory of float32 operands and the kernels over it. */
export class WasmHeap {
  private readonly memory: WasmMemory;
  private readonly exports: Record<string, unknown>;
  private readonly gemmFn: (...args: number[]) => void;
  private readonly gemmNTFn: (...args: number[]) => void;
  /**
   * The whole memory as floats, and as ints (both 4 bytes); new views after `reserve` grows it
   * (the old ones are detached).
   */
  floats: Float32Array;
  ints: Int32Array;

  constructor(options: WasmHeapOptions = {}) {
    const module = moduleOf(options.kernels ?? []);
    this.memory = new wasm.Memory({ initial: Math.max(1, Math.ceil((options.floats ?? 0) / PAGE_FLOATS)) });
    this.exports = new wasm.Instance(module, { env: { memory: this.memory } }).exports;
    this.gemmFn = this.exports.gemm as (...args: number[]) => void;
    this.gemmNTFn = this.exports.gemmNT as (...args: number[]) => void;
    this.floats = new Float32Array(this.memory.buffer);
    this.ints = new Int32Array(this.memory.buffer);
  }

  /** The assembled kernel `name` (one of `options.kernels`), typed as `F`; it takes byte addresses. */
  kernel<F extends (...args: number[]) => unknown = (...args: number[]) => void>(name: string): F {
    const fn = this.exports[name];
    if (typeof fn !== "function") throw new EngineError(`no kernel named ${name} in this heap`);
    return fn as F;
  }

  /** Grows the memory to hold at least `floats` floats (views taken before then are detached). */
  reserve(floats: number): void {
    if (floats <= this.floats.length) return;
    this.memory.grow(Math.ceil((floats - this.floats.length) / PAGE_FLOATS));
    this.floats = new Float32Array(this.memory.buffer);
    this.ints = new Int32Array(this.memory.buffer);
  }

  /**
   * out (R, Q) = a (R, K) · b (Q, K)ᵀ, or out += when `accumulate`; offsets in floats, rows
   * contiguous. The kernel of every linear layer's forward (gemm-nt-wasm.ts).
   */
  gemmNT(out: number, a: number, b: number, R: number, Q: number, K: number, accumulate: boolean): void {
    this.check(out + R * Q, a + R * K, b + Q * K);
    this.gemmNTFn(out * 4, a * 4, b * 4, R, Q, K, accumulate ? 1 : 0);
  }

  /**
   * out (R, Q) = op(a) · b (K, Q), or out += when `accumulate`; op(a) is a (R, K) with rows
   * `aRowStride` floats apart, or aᵀ for a (K, R) when `transA`. Offsets in floats (gemm-wasm.ts).
   */
  gemm(
    out: number,
    a: number,
    b: number,
    R: number,
    Q: number,
    K: number,
    transA: boolean,
    accumulate: boolean,
    aRowStride = K,
  ): void {
    this.check(out + R * Q, a + (transA ? K * R : (R - 1) * aRowStride + K), b + K * Q);
    const [rowStride, colStride] = transA ? [4, R * 4] : [aRowStride * 4, 4];
    this.gemmFn(out * 4, a * 4, b * 4, R, Q, K, rowStride, colStride, accumulate ? 1 : 0);
  }

  /** A kernel reading or writing past the memory would trap deep inside WebAssembly: say where instead. */
  private check(outEnd: number, aEnd: number, bEnd: number): void {
    const end = Math.max(outEnd, aEnd, bEnd);
    if (end > this.floats.length) {
      throw new EngineError(
        `a kernel operand ends at float ${end}, past the heap of ${this.floats.length}: reserve room first`,
      );
    }
  }
}
