/**
 * The fast forward pass for sampling (float32), beside its plain reference cached-forward.ts: the
 * same computation with everything it touches resident in one WebAssembly memory (wasm-heap.ts):
 * a copy of the weights, the activations of up to CHUNK_ROWS rows, and every sequence's KV cache.
 * Nothing is copied per product: each linear layer is one (N, C)·(C, ·) product for the new tokens
 * of all sequences together, on the training forward's kernel; each new row's attention over its
 * own cache (all heads) and the SwiGLU are kernels that repeat layers.ts's arithmetic step for step
 * (attention-row-wasm.ts, swiglu-wasm.ts); norms and rotary positions are layers.ts's functions on
 * views of the memory. So its logits equal the training forward's bit for bit
 * (batch-sampler.test.ts checks it against both).
 *
 * The weights are copied in at the first step after no cache was open: change the model's weights
 * only while nothing is being sampled (the server's weight updates drain first). Each open cache
 * holds a slot of maxSeqLen positions; the memory grows to the most caches ever open at once and
 * keeps that size.
 *
 * Dimensions as in model.ts; N new tokens over S sequences, run in chunks of at most R = CHUNK_ROWS
 * rows (a long prompt is prefilled over several chunks of one step); T = maxSeqLen.
 */
import { EngineError } from "../errors.ts";
import { attentionRowFunction } from "../kernels/attention-row-wasm.ts";
import { swigluFunction } from "../kernels/swiglu-wasm.ts";
import { WasmHeap } from "../kernels/wasm-heap.ts";
import { encoderForward, rmsnormForward, ropeApply } from "../layers.ts";
import type { Transformer } from "../model.ts";
import { parameterCount, tensorViews } from "../params.ts";
import { checkCopy, checkStep, type SequenceCache, type StepForward } from "./step-forward.ts";

/** Rows run through the layers together: enough for full-speed products, few enough for small buffers. */
const CHUNK_ROWS = 512;

/** A sequence's cache in the heap: slot `slot` holds its keys and values. */
class SlotCache implements SequenceCache {
  length = 0;
  constructor(
    readonly slot: number,
    readonly capacity: number,
  ) {}
}

/** Rows `row .. row + n` of a chunk: new tokens `first .. first + n` of sequence `s`. */
interface Segment {
  s: number;
  cache: SlotCache;
  row: number;
  first: number;
  n: number;
}

/** Float offsets of the heap's regions. */
interface Layout {
  tokEmb: number; // (V, C)
  layers: { attnNorm: number; wqkv: number; wo: number; mlpNorm: number; w13: number; w2: number }[];
  norm: number; // (C)
  x: number; // (R, C) residual stream
  ln: number; // (R, C)
  rstd: number; // (R)
  qkv: number; // (R, 3C)
  atty: number; // (R, C)
  h13: number; // (R, 2F)
  act: number; // (R, F)
  hIn: number; // (R, C) last rows of the sequences ending in the chunk
  hOut: number; // (R, C)
  lnfRstd: number; // (R)
  logits: number; // (R, V)
  probs: number; // (T) attention scores of one row and head, then probabilities
  slots: number; // slot i at slots + i·slotSize: L × [keys (H, T, D), values (H, T, D)]
  slotSize: number;
}

/** Runs steps of sampling for a float32 model, in WebAssembly memory. */
export class WasmCachedForward implements StepForward {
  private readonly heap: WasmHeap;
  private readonly at: Layout;
  private readonly freeSlots: number[] = [];
  private slotCount = 0;
  private openCount = 0;
  private weightsStale = true;
  private out = new Float32Array(0); // (S, V) the step's logits, in ordinary memory
  private readonly attentionRow: (qkv: number, keys: number, pos: number, out: number, probs: number) => void;
  private readonly swiglu: (h13: number, act: number, rows: number, F: number) => void;

  constructor(readonly model: Transformer) {
    if (!(model.params instanceof Float32Array)) {
      throw new EngineError(
        "the WebAssembly forward runs float32 models: sample a float64 one with CachedForward",
      );
    }
    this.at = layout(model);
    this.heap = new WasmHeap({
      floats: this.at.slots,
      kernels: [attentionRowFunction(model.config), swigluFunction],
    });
    this.attentionRow = this.heap.kernel("attentionRow");
    this.swiglu = this.heap.kernel("swiglu");
  }

  openCache(capacity: number): SlotCache {
    const { maxSeqLen } = this.model.config;
    if (!Number.isInteger(capacity) || capacity < 1 || capacity > maxSeqLen) {
      throw new EngineError(`a KV cache holds 1 to ${maxSeqLen} positions (maxSeqLen), not ${capacity}`);
    }
    const slot = this.freeSlots.pop() ?? this.slotCount++;
    this.heap.reserve(this.at.slots + (slot + 1) * this.at.slotSize);
    if (this.openCount === 0) this.weightsStale = true; // the weights may have changed while idle
    this.openCount += 1;
    return new SlotCache(slot, capacity);
  }

  closeCache(cache: SequenceCache): void {
    this.slotOf(cache);
    this.freeSlots.push((cache as SlotCache).slot);
    this.openCount -= 1;
  }

  copyPrefix(fromCache: SequenceCache, toCache: SequenceCache, length: number): void {
    const from = this.slotOf(fromCache);
    const to = this.slotOf(toCache);
    checkCopy(from, to, length);
    const { dModel: C, nHeads: H, maxSeqLen: T, nLayers: L } = this.model.config;
    const D = C / H;
    const { at } = this;
    const f = this.heap.floats;
    const src = at.slots + from.slot * at.slotSize;
    const dst = at.slots + to.slot * at.slotSize;
    // L × [keys (H, T, D), values (H, T, D)]: 2L·H runs of `length` rows
    for (let run = 0; run < 2 * L * H; run++) {
      f.copyWithin(dst + run * T * D, src + run * T * D, src + run * T * D + length * D);
    }
    to.length = length;
  }

  step(sequenceCaches: readonly SequenceCache[], newTokens: readonly (readonly number[])[]): Float32Array {
    const { vocabSize: V } = this.model.config;
    const caches = sequenceCaches.map((cache) => this.slotOf(cache));
    const S = caches.length;
    checkStep(caches, newTokens, V);
    if (this.weightsStale) {
      this.heap.floats.set(this.model.params, 0);
      this.weightsStale = false;
    }
    if (this.out.length < S * V) this.out = new Float32Array(S * V);
    // cut the new tokens into chunks of at most CHUNK_ROWS rows; a sequence may span chunks
    let segments: Segment[] = [];
    let rows = 0;
    for (let s = 0; s < S; s++) {
      const total = newTokens[s]!.length;
      for (let first = 0; first < total; ) {
        const n = Math.min(total - first, CHUNK_ROWS - rows);
        segments.push({ s, cache: caches[s]!, row: rows, first, n });
        first += n;
        rows += n;
        if (rows === CHUNK_ROWS) {
          this.runChunk(segments, rows, newTokens);
          segments = [];
          rows = 0;
        }
      }
    }
    if (rows > 0) this.runChunk(segments, rows, newTokens);
    return this.out.subarray(0, S * V);
  }

  /** Runs the rows of `segments` (`rows` in all) through the model; the caches grow by them. */
  private runChunk(
    segments: readonly Segment[],
    rows: number,
    newTokens: readonly (readonly number[])[],
  ): void {
    const { dModel: C, nHeads: H, dFF: F, vocabSize: V, normEps: eps, nLayers: L } = this.model.config;
    const { heap, at } = this;
    const f = heap.floats;
    const view = (offset: number, length: number): Float32Array => f.subarray(offset, offset + length);
    const tokens = new Int32Array(rows); // (rows)
    const positions = new Int32Array(rows); // (rows)
    for (const { s, cache, row, first, n } of segments) {
      for (let i = 0; i < n; i++) {
        tokens[row + i] = newTokens[s]![first + i]!;
        positions[row + i] = cache.length + i;
      }
    }
    const x = view(at.x, rows * C);
    const ln = view(at.ln, rows * C);
    const rstd = view(at.rstd, rows);
    const qkv = view(at.qkv, rows * 3 * C);
    encoderForward(x, tokens, view(at.tokEmb, V * C), rows, C);
    for (let l = 0; l < L; l++) {
      const lw = at.layers[l]!;
      rmsnormForward(ln, rstd, x, view(lw.attnNorm, C), rows, C, eps);
      heap.gemmNT(at.qkv, at.ln, lw.wqkv, rows, 3 * C, C, false);
      ropeApply(qkv, positions, rows, C, H, this.model.rope, 1);
      for (const segment of segments) this.attend(l, segment);
      heap.gemmNT(at.x, at.atty, lw.wo, rows, C, C, true);
      rmsnormForward(ln, rstd, x, view(lw.mlpNorm, C), rows, C, eps);
      heap.gemmNT(at.h13, at.ln, lw.w13, rows, 2 * F, C, false);
      this.swiglu(at.h13 * 4, at.act * 4, rows, F);
      heap.gemmNT(at.x, at.act, lw.w2, rows, C, F, true);
    }
    for (const segment of segments) segment.cache.length += segment.n;
    // logits of the sequences whose last new token is in this chunk
    const ending = segments.filter(({ s, first, n }) => first + n === newTokens[s]!.length);
    if (ending.length === 0) return;
    const M = ending.length;
    ending.forEach(({ row, n }, m) => {
      f.copyWithin(at.hIn + m * C, at.x + (row + n - 1) * C, at.x + (row + n) * C);
    });
    rmsnormForward(
      view(at.hOut, M * C),
      view(at.lnfRstd, M),
      view(at.hIn, M * C),
      view(at.norm, C),
      M,
      C,
      eps,
    );
    heap.gemmNT(at.logits, at.hOut, at.tokEmb, M, V, C, false);
    ending.forEach(({ s }, m) => {
      this.out.set(view(at.logits + m * V, V), s * V);
    });
  }

  /**
   * Attention of one segment's rows in layer l: row by row, each row's keys and values join the
   * cache and the row attends over its past and itself (attention-row-wasm.ts, which computes what
   * the training forward's kernels and softmaxRow compute for that row, bit for bit).
   */
  private attend(l: number, { cache, row, n }: Segment): void {
    const { dModel: C, maxSeqLen: T } = this.model.config;
    const { at } = this;
    const keys = (at.slots + cache.slot * at.slotSize + l * 2 * T * C) * 4;
    for (let i = 0; i < n; i++) {
      const r = row + i;
      this.attentionRow(
        (at.qkv + r * 3 * C) * 4,
        keys,
        cache.length + i,
        (at.atty + r * C) * 4,
        at.probs * 4,
      );
    }
  }

  private slotOf(cache: SequenceCache): SlotCache {
    if (!(cache instanceof SlotCache)) throw new EngineError("step a cache with the forward that opened it");
    return cache;
  }
}

/** Where each region of the heap starts: the weights (as in the flat parameter buffer), then the rest. */
function layout(model: Transformer): Layout {
  const { dModel: C, dFF: F, vocabSize: V, maxSeqLen: T, nLayers: L } = model.config;
  const R = CHUNK_ROWS;
  const P = parameterCount(model.config);
  // tensor offsets, read off views of a buffer laid out as the parameters are
  const w = tensorViews(model.config, new Float32Array(P));
  const offset = (v: Float32Array | Float64Array): number => v.byteOffset / 4;
  let next = P;
  const take = (floats: number): number => {
    const start = (next + 3) & ~3; // 16-byte aligned
    next = start + floats;
    return start;
  };
  return {
    tokEmb: offset(w.tokEmb),
    layers: w.layers.map((lw) => ({
      attnNorm: offset(lw.attnNorm),
      wqkv: offset(lw.wqkv),
      wo: offset(lw.wo),
      mlpNorm: offset(lw.mlpNorm),
      w13: offset(lw.w13),
      w2: offset(lw.w2),
    })),
    norm: offset(w.norm),
    x: take(R * C),
    ln: take(R * C),
    rstd: take(R),
    qkv: take(R * 3 * C),
    atty: take(R * C),
    h13: take(R * 2 * F),
    act: take(R * F),
    hIn: take(R * C),
    hOut: take(R * C),
    lnfRstd: take(R),
    logits: take(R * V),
    probs: take(T),
    slots: take(0),
    slotSize: L * 2 * T * C,
  };
}
