import { describe, expect, it } from "vitest";
import { Rng } from "../rng.ts";
import { matmulReference } from "./matmul.ts";
import { matmulWasm } from "./wasm-kernels.ts";

function random(n: number, rng: Rng): Float32Array {
  return Float32Array.from({ length: n }, () => rng.normal());
}

// shapes cover every tile of the kernel: 4- and 1-row blocks, 8-, 4- and 1-column blocks
const shapes: [number, number, number][] = [
  [1, 1, 1],
  [5, 13, 7],
  [8, 16, 64],
  [37, 263, 64],
  [64, 64, 300],
];

describe.each([
  [false, false],
  [false, true],
  [true, false],
])("the WebAssembly SIMD matmul (transA %s, transB %s)", (transA, transB) => {
  it.each(shapes)("agrees with the reference for R=%i Q=%i K=%i, overwriting and accumulating", (R, Q, K) => {
    const rng = new Rng(R * 1000 + Q + K);
    const a = random(R * K, rng);
    const b = random(K * Q, rng);
    const start = random(R * Q, rng);
    for (const accumulate of [false, true]) {
      const fast = Float32Array.from(start);
      const reference = Float32Array.from(start);
      matmulWasm(fast, a, b, R, Q, K, transA, transB, accumulate);
      matmulReference(reference, a, b, R, Q, K, transA, transB, accumulate);
      const scale = Math.sqrt(K); // sums of K unit normals: float32 rounding grows with it
      for (let i = 0; i < R * Q; i++)
        expect(Math.abs(fast[i]! - reference[i]!)).toBeLessThan(2e-6 * scale * 4);
    }
  });
});

describe("the WebAssembly SIMD matmul", () => {
  it("gives a row the same bits whatever rows surround it", () => {
    const rng = new Rng(9);
    const K = 64;
    const Q = 263;
    const a = random(9 * K, rng);
    const b = random(K * Q, rng);
    const all = new Float32Array(9 * Q);
    matmulWasm(all, a, b, 9, Q, K, false, false, false);
    for (let r = 0; r < 9; r++) {
      const one = new Float32Array(Q);
      matmulWasm(one, a.subarray(r * K, (r + 1) * K), b, 1, Q, K, false, false, false);
      expect(one).toEqual(all.subarray(r * Q, (r + 1) * Q));
    }
  });
});
