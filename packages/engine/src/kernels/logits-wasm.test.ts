import { describe, expect, it } from "vitest";
import { Rng } from "../rng.ts";
import { drawFunction, sumExpFunction } from "./logits-wasm.ts";
import { WasmHeap } from "./wasm-heap.ts";

const heap = new WasmHeap({ floats: 2 * 300, kernels: [sumExpFunction, drawFunction] });
const z = new Float64Array(heap.floats.buffer, 0, 300);
const sumExp = heap.kernel<(z: number, n: number, max: number) => number>("sumExp");
const draw = heap.kernel<(z: number, n: number, lse: number, u: number) => number>("draw");

// the reference: the logits processor's loops, with Math.exp and sums in id order
function referenceSum(n: number, max: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += Math.exp(z[i]! - max);
  return sum;
}
function referenceDraw(n: number, lse: number, u: number): number {
  let cumulative = 0;
  for (let i = 0; i < n; i++) {
    cumulative += Math.exp(z[i]! - lse);
    if (cumulative > u) return i;
  }
  return n - 1;
}

describe("the WebAssembly exponentials of sampling", () => {
  it.each([263, 8, 1])("sum and draw as the logits processor does, bit for bit, over %i logits", (n) => {
    const rng = new Rng(n);
    for (let trial = 0; trial < 50; trial++) {
      for (let i = 0; i < n; i++) z[i] = rng.normal() * (1 + (trial % 5) * 3);
      let max = Number.NEGATIVE_INFINITY;
      for (let i = 0; i < n; i++) max = Math.max(max, z[i]!);
      const sum = sumExp(0, n, max);
      expect(Object.is(sum, referenceSum(n, max))).toBe(true);
      const lse = max + Math.log(sum);
      for (const u of [0, rng.nextFloat(), rng.nextFloat(), 0.999999999]) {
        expect(draw(0, n, lse, u)).toBe(referenceDraw(n, lse, u));
      }
    }
  });
});
