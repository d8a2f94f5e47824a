import { describe, expect, it } from "vitest";
import { parseModelConfig } from "../config.ts";
import { softmaxRow } from "../layers.ts";
import { Rng } from "../rng.ts";
import { attentionRowFunction } from "./attention-row-wasm.ts";
import { matmul } from "./matmul.ts";
import { WasmHeap } from "./wasm-heap.ts";

const random = (n: number, rng: Rng, scale = 1): Float32Array =>
  Float32Array.from({ length: n }, () => rng.normal() * scale);

// head sizes 16 (four lanes, four times), 6 (one group and a tail of two) and 2 (a tail only)
describe.each([
  [64, 4],
  [24, 4],
  [8, 4],
])("the WebAssembly attention row (C=%i, H=%i)", (C, H) => {
  const T = 40;
  const D = C / H;
  const config = parseModelConfig({ vocabSize: 10, dModel: C, nLayers: 1, nHeads: H, dFF: 8, maxSeqLen: T });

  it("stores the row's key and value, and gives the training kernels' output bit for bit", () => {
    const rng = new Rng(C);
    // heap: [ qkv (3C) | cache: keys (H, T, D), values (H, T, D) | out (C) | probs (T) ]
    const heap = new WasmHeap({ floats: 4 * C + 2 * T * C + T, kernels: [attentionRowFunction(config)] });
    const attentionRow = heap.kernel("attentionRow");
    const [qkvAt, keysAt, outAt, probsAt] = [0, 3 * C, 3 * C + 2 * T * C, 4 * C + 2 * T * C];
    const f = heap.floats;
    f.set(random(3 * C, rng, 3), qkvAt);
    f.set(random(2 * T * C, rng, 3), keysAt); // earlier positions' keys and values (and noise beyond)
    for (const pos of [0, 1, 17, T - 1]) {
      attentionRow(qkvAt * 4, keysAt * 4, pos, outAt * 4, probsAt * 4);
      const qkv = f.slice(qkvAt, qkvAt + 3 * C);
      for (let h = 0; h < H; h++) {
        const keys = f.slice(keysAt + h * T * D, keysAt + (h * T + pos + 1) * D); // (pos + 1, D)
        const values = f.slice(keysAt + (T * C + h * T * D), keysAt + T * C + (h * T + pos + 1) * D);
        expect(keys.subarray(pos * D)).toEqual(qkv.subarray(C + h * D, C + (h + 1) * D));
        expect(values.subarray(pos * D)).toEqual(qkv.subarray(2 * C + h * D, 2 * C + (h + 1) * D));
        // what the training forward computes for this row (layers.ts attentionForward)
        const probs = new Float32Array(pos + 1);
        const expected = new Float32Array(D);
        matmul(probs, qkv.subarray(h * D, (h + 1) * D), keys, 1, pos + 1, D, false, true, false);
        softmaxRow(probs, 0, pos + 1, 1 / Math.sqrt(D));
        matmul(expected, probs, values, 1, D, pos + 1, false, false, false);
        expect(f.slice(outAt + h * D, outAt + (h + 1) * D)).toEqual(expected);
      }
    }
  });
});
