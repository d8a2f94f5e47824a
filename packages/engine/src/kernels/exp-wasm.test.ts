import { describe, expect, it } from "vitest";
import { Rng } from "../rng.ts";
import { expFunction } from "./exp-wasm.ts";
import { assembleModule } from "./wasm-assembler.ts";

interface WasmApi {
  Memory: new (d: { initial: number }) => object;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (m: object, i: object) => { exports: { exp: (x: number) => number } };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
const module = new wasm.Module(assembleModule([expFunction], { initialPages: 1 }));
const exp = new wasm.Instance(module, { env: { memory: new wasm.Memory({ initial: 1 }) } }).exports.exp;

describe("the WebAssembly exp", () => {
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
  });

  it("gives Math.exp's result bit for bit on a million arguments of every scale", () => {
    const rng = new Rng(1);
    let mismatches = 0;
    for (let i = 0; i < 1_000_000; i++) {
      const u = rng.nextFloat() - 0.5;
      // softmax's range, SwiGLU's, near 0, and the whole finite range
      const x = [u * 60 - 30, u * 20, u * 2 ** -20, u * 1500][i % 4]!;
      if (!Object.is(exp(x), Math.exp(x))) mismatches += 1;
    }
    expect(mismatches).toBe(0);
  });
});
