/**
 * The fast forward pass for sampling (float32), beside its plain reference cached-forward.ts: the
 * same computation with everything it touches resident in one WebAssembly memory
 * (decode-layout.ts): a copy of the weights, the activations, and every sequence's KV cache.
 * Nothing is copied per product: each linear layer is one product over the new tokens of all
 * sequences together, and each row attends over its cache in place (decode-rows.ts). Its logits
 * equal the training forward's bit for bit (batch-sampler.test.ts checks it against both).
 *
 * The weights are copied in at the first step after no cache was open: change the model's weights
 * only while nothing is being sampled (the server's weight updates drain first). Each open cache
 * holds a slot of maxSeqLen positions; the memory grows to the most caches ever open at once and
 * keeps that size.
 */
import { EngineError } from "../errors.ts";
import { WasmHeap } from "../kernels/wasm-heap.ts";
import type { Transformer } from "../model.ts";
import { type DecodeLayout, decodeLayout, MAX_OUTPUTS } from "./decode-layout.ts";
import { DecodeRows, decodeKernels } from "./decode-rows.ts";
import { checkCopy, checkStep, type SequenceCache, type StepForward } from "./step-forward.ts";

/** A sequence's cache in the memory: slot `slot` holds its keys and values. */
class SlotCache implements SequenceCache {
  length = 0;
  constructor(
    readonly slot: number,
    readonly capacity: number,
  ) {}
}

/** Runs steps of sampling for a float32 model, in WebAssembly memory. */
export class WasmCachedForward implements StepForward {
  private readonly heap: WasmHeap;
  private readonly at: DecodeLayout;
  private readonly rows: DecodeRows;
  private readonly freeSlots: number[] = [];
  private slotCount = 0;
  private openCount = 0;
  private weightsStale = true;
  private out = new Float32Array(0); // (S, V) the step's logits, in ordinary memory

  constructor(readonly model: Transformer) {
    if (!(model.params instanceof Float32Array)) {
      throw new EngineError(
        "the WebAssembly forward runs float32 models: sample a float64 one with CachedForward",
      );
    }
    this.at = decodeLayout(model.config);
    this.heap = new WasmHeap({ floats: this.at.slots, kernels: decodeKernels(model.config) });
    this.rows = new DecodeRows(this.heap, this.at, model.config, model.rope);
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
    this.freeSlots.push(this.slotOf(cache).slot);
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
    // passes of whole sequences, as many as the plan and the logits hold
    for (let first = 0; first < S; ) {
      let end = first;
      let rows = 0;
      while (end < S && end - first < MAX_OUTPUTS && rows + newTokens[end]!.length <= this.at.planRows) {
        rows += newTokens[end]!.length;
        end += 1;
      }
      this.pass(caches.slice(first, end), newTokens.slice(first, end));
      this.out.set(this.heap.floats.subarray(this.at.logits, this.at.logits + (end - first) * V), first * V);
      for (let s = first; s < end; s++) caches[s]!.length += newTokens[s]!.length;
      first = end;
    }
    return this.out.subarray(0, S * V);
  }

  /** Writes the plan of these sequences' rows and runs it. */
  private pass(caches: readonly SlotCache[], newTokens: readonly (readonly number[])[]): void {
    const { at } = this;
    const ints = this.heap.ints;
    let row = 0;
    caches.forEach((cache, s) => {
      const tokens = newTokens[s]!;
      for (let i = 0; i < tokens.length; i++, row++) {
        ints[at.tokens + row] = tokens[i]!;
        ints[at.positions + row] = cache.length + i;
        ints[at.slotOf + row] = cache.slot;
        ints[at.outputOf + row] = i === tokens.length - 1 ? s : -1;
      }
    });
    this.rows.run(0, row);
  }

  private slotOf(cache: SequenceCache): SlotCache {
    if (!(cache instanceof SlotCache)) throw new EngineError("step a cache with the forward that opened it");
    return cache;
  }
}
