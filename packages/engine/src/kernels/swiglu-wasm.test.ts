import { describe, expect, it } from "vitest";
import { swigluForward } from "../layers.ts";
import { Rng } from "../rng.ts";
import { swigluFunction } from "./swiglu-wasm.ts";
import { WasmHeap } from "./wasm-heap.ts";

const random = (n: number, rng: Rng, scale = 1): Float32Array =>
  Float32Array.from({ length: n }, () => rng.normal() * scale);

describe("the WebAssembly SwiGLU", () => {
  it.each([
    [7, 256],
    [3, 5],
  ])(
    "gives swigluForward's activations bit for bit for %i rows of width %i, and writes nothing else",
    (rows, F) => {
      const rng = new Rng(F);
      // heap: [ h13 (rows, 2F) | act (rows, F) | a guard of F floats ]
      const heap = new WasmHeap({ floats: 3 * rows * F + F, kernels: [swigluFunction] });
      const h13 = random(rows * 2 * F, rng, 4);
      heap.floats.set(h13, 0);
      heap.floats.fill(7, rows * 3 * F, rows * 3 * F + F);
      heap.kernel("swiglu")(0, rows * 2 * F * 4, rows, F);
      const act = new Float32Array(rows * F);
      swigluForward(act, new Float32Array(rows * F), h13, rows, F);
      expect(heap.floats.slice(rows * 2 * F, rows * 3 * F)).toEqual(act);
      expect(heap.floats.slice(0, rows * 2 * F)).toEqual(h13);
      expect(heap.floats.slice(rows * 3 * F, rows * 3 * F + F)).toEqual(new Float32Array(F).fill(7));
    },
  );
});
