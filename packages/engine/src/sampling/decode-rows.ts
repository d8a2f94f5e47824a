/**
 * The model over rows of a pass's plan, for the WebAssembly forward (wasm-cached-forward.ts): runs
 * them through the layers CHUNK_ROWS at a time, writes their keys and values into their sequences'
 * cache slots, and the logits of each sequence's last row into the logits region.
 *
 * The linear layers are the training forward's kernel (gemmNT) on all rows of a chunk at once; each
 * row's attention over its cache (all heads) and the SwiGLU are kernels that repeat layers.ts's
 * arithmetic step for step; norms and rotary positions are layers.ts's functions on views of the
 * memory. Dimensions as in model.ts and decode-layout.ts.
 */
import type { ModelConfig } from "../config.ts";
import { attentionRowFunction } from "../kernels/attention-row-wasm.ts";
import { swigluFunction } from "../kernels/swiglu-wasm.ts";
import type { WasmFunction } from "../kernels/wasm-assembler.ts";
import type { WasmHeap } from "../kernels/wasm-heap.ts";
import { encoderForward, type RopeTable, rmsnormForward, ropeApply } from "../layers.ts";
import { CHUNK_ROWS, type DecodeLayout } from "./decode-layout.ts";

/** The kernels beside the products that the rows need. */
export function decodeKernels(config: ModelConfig): WasmFunction[] {
  return [attentionRowFunction(config), swigluFunction];
}

/** Runs plan rows through the model. */
export class DecodeRows {
  private readonly attentionRow: (qkv: number, keys: number, pos: number, out: number, probs: number) => void;
  private readonly swiglu: (h13: number, act: number, rows: number, F: number) => void;

  constructor(
    private readonly heap: WasmHeap,
    private readonly at: DecodeLayout,
    private readonly config: ModelConfig,
    private readonly rope: RopeTable,
  ) {
    this.attentionRow = heap.kernel("attentionRow");
    this.swiglu = heap.kernel("swiglu");
  }

  /** Runs plan rows first .. end − 1, CHUNK_ROWS at a time (a sequence's rows stay in order). */
  run(first: number, end: number): void {
    for (let start = first; start < end; start += CHUNK_ROWS) {
      this.runChunk(start, Math.min(end, start + CHUNK_ROWS));
    }
  }

  private runChunk(first: number, end: number): void {
    const {
      dModel: C,
      nHeads: H,
      dFF: F,
      vocabSize: V,
      normEps: eps,
      nLayers: L,
      maxSeqLen: T,
    } = this.config;
    const { heap, at } = this;
    const b = at.buffers;
    const f = heap.floats;
    const ints = heap.ints;
    const rows = end - first;
    const view = (offset: number, length: number): Float32Array => f.subarray(offset, offset + length);
    const positions = ints.subarray(at.positions + first, at.positions + end); // (rows)
    const x = view(b.x, rows * C);
    const ln = view(b.ln, rows * C);
    const rstd = view(b.rstd, rows);
    encoderForward(x, ints.subarray(at.tokens + first, at.tokens + end), view(at.tokEmb, V * C), rows, C);
    for (let l = 0; l < L; l++) {
      const lw = at.layers[l]!;
      rmsnormForward(ln, rstd, x, view(lw.attnNorm, C), rows, C, eps);
      heap.gemmNT(b.qkv, b.ln, lw.wqkv, rows, 3 * C, C, false);
      ropeApply(view(b.qkv, rows * 3 * C), positions, rows, C, H, this.rope, 1);
      // each row's keys and values join its cache, then it attends over its past and itself
      for (let r = 0; r < rows; r++) {
        const keys = at.slots + ints[at.slotOf + first + r]! * at.slotSize + l * 2 * T * C;
        this.attentionRow(
          (b.qkv + r * 3 * C) * 4,
          keys * 4,
          positions[r]!,
          (b.atty + r * C) * 4,
          b.probs * 4,
        );
      }
      heap.gemmNT(b.x, b.atty, lw.wo, rows, C, C, true);
      rmsnormForward(ln, rstd, x, view(lw.mlpNorm, C), rows, C, eps);
      heap.gemmNT(b.h13, b.ln, lw.w13, rows, 2 * F, C, false);
      this.swiglu(b.h13 * 4, b.act * 4, rows, F);
      heap.gemmNT(b.x, b.act, lw.w2, rows, C, F, true);
    }
    // logits of the rows that end their sequence's new tokens
    const outputs: number[] = []; // (M) where each goes
    for (let r = 0; r < rows; r++) {
      const output = ints[at.outputOf + first + r]!;
      if (output < 0) continue;
      f.copyWithin(b.hIn + outputs.length * C, b.x + r * C, b.x + (r + 1) * C);
      outputs.push(output);
    }
    const M = outputs.length;
    if (M === 0) return;
    rmsnormForward(view(b.hOut, M * C), view(b.lnfRstd, M), view(b.hIn, M * C), view(at.norm, C), M, C, eps);
    heap.gemmNT(b.logits, b.hOut, at.tokEmb, M, V, C, false);
    outputs.forEach((output, m) => {
      f.copyWithin(at.logits + output * V, b.logits + m * V, b.logits + (m + 1) * V);
    });
  }
}
