import { describe, expect, it } from "vitest";
import { Rng } from "../rng.ts";
import { expFunction, expPairFunction } from "./exp-wasm.ts";
import { assembleModule } from "./wasm-assembler.ts";

interface WasmApi {
  Memory: new (d: { initial: number }) => { buffer: ArrayBuffer };
  Module: new (bytes: Uint8Array) => object;
  Instance: new (
    m: object,
    i: object,
  ) => { exports: { exp: (x: number) => number; expPair: (at: number) => void } };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
const memory = new wasm.Memory({ initial: 1 });
const module = new wasm.Module(assembleModule([expFunction, expPairFunction], { initialPages: 1 }));
const { exports } = new wasm.Instance(module, { env: { memory } });
const exp = exports.exp;
const doubles = new Float64Array(memory.buffer, 0, 2);
/** exp of a and b through the two-lane kernel. */
function expPair(a: number, b: number): [number, number] {
  doubles.set([a, b]);
  exports.expPair(0);
  return [doubles[0]!, doubles[1]!];
}

describe("the WebAssembly exp, one lane and two", () => {
  it("gives Math.exp's result bit for bit at the edges of every branch", () => {
    const edges = [
      0,
      -0,
      1,
      -1,
      2 ** -28,
      -(2 ** -28),
      2 ** -29,
      0.5 * Math.LN2,
      -0.5 * Math.LN2,
      1.5 * Math.LN2,
      -1.5 * Math.LN2,
      709.782712893384,
      709.7827128933841,
      -708.3964185322641,
      -708.4,
      -745.1332191019411,
      -745.1332191019412,
      1000,
      -1000,
      Number.MIN_VALUE,
      Number.MAX_VALUE,
      -Number.MAX_VALUE,
      Infinity,
      -Infinity,
      Number.NaN,
    ];
    for (const x of edges) expect(Object.is(exp(x), Math.exp(x)), `exp(${x})`).toBe(true);
    // two lanes: each edge beside an ordinary argument, in both lanes, and beside itself
    for (const x of edges) {
      for (const [a, b] of [
        [x, -3.5],
        [-3.5, x],
        [x, x],
      ] as const) {
        const [ea, eb] = expPair(a, b);
        expect(Object.is(ea, Math.exp(a)) && Object.is(eb, Math.exp(b)), `exp(${a}, ${b})`).toBe(true);
      }
    }
  });

  it("gives Math.exp's result bit for bit on a million arguments of every scale", () => {
    const rng = new Rng(1);
    let mismatches = 0;
    for (let i = 0; i < 1_000_000; i++) {
      const u = rng.nextFloat() - 0.5;
      // softmax's range, SwiGLU's, near 0, and the whole finite range
      const x = [u * 60 - 30, u * 20, u * 2 ** -20, u * 1500][i % 4]!;
      if (!Object.is(exp(x), Math.exp(x))) mismatches += 1;
      const y = u * 40 - 30; // a second lane, mostly on the main path
      const [ex, ey] = expPair(x, y);
      if (!Object.is(ex, Math.exp(x)) || !Object.is(ey, Math.exp(y))) mismatches += 1;
    }
    expect(mismatches).toBe(0);
  });
});
