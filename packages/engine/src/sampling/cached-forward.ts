/**
 * The plain forward pass for sampling, the reference of wasm-cached-forward.ts (and the one float64
 * models use): runs only the new tokens of each sequence, reads the past from its KV cache, and
 * returns the logits of each sequence's last new token. It calls the very layer functions and
 * kernels of model.ts in the same order on ordinary arrays, so its logits equal the training
 * forward's bit for bit (every kernel computes a row the same way whatever the other rows are).
 *
 * Dimensions as in model.ts; here N is the number of new tokens over all sequences and S the
 * number of sequences stepped together (prompts being prefilled and sequences decoding mix freely).
 */
import { EngineError } from "../errors.ts";
import { allocFloats, type Floats } from "../floats.ts";
import { matmul } from "../kernels/matmul.ts";
import {
  encoderForward,
  gatherRows,
  linearForward,
  rmsnormForward,
  ropeApply,
  softmaxRow,
  swigluForward,
} from "../layers.ts";
import type { Transformer } from "../model.ts";
import { KvCache } from "./kv-cache.ts";
import { checkCopy, checkStep, type SequenceCache, type StepForward } from "./step-forward.ts";

/** Buffers for `capacity` new tokens and sequences, reused across steps. */
class StepBuffers {
  readonly x: Floats; // (N, C) residual stream
  readonly ln: Floats; // (N, C)
  readonly rstd: Floats; // (N)
  readonly qkv: Floats; // (N, 3C)
  readonly atty: Floats; // (N, C)
  readonly h13: Floats; // (N, 2F)
  readonly sig: Floats; // (N, F)
  readonly act: Floats; // (N, F)
  readonly probs: Floats; // (maxSeqLen) attention scores, then probabilities, of one query row
  readonly hIn: Floats; // (S, C)
  readonly hOut: Floats; // (S, C)
  readonly lnfRstd: Floats; // (S)
  readonly logits: Floats; // (S, V)

  constructor(
    model: Transformer,
    readonly rows: number,
    readonly seqs: number,
  ) {
    const { dModel: C, dFF: F, vocabSize: V, maxSeqLen } = model.config;
    const f = (n: number): Floats => allocFloats(model.dtype, n);
    this.x = f(rows * C);
    this.ln = f(rows * C);
    this.rstd = f(rows);
    this.qkv = f(rows * 3 * C);
    this.atty = f(rows * C);
    this.h13 = f(rows * 2 * F);
    this.sig = f(rows * F);
    this.act = f(rows * F);
    this.probs = f(maxSeqLen);
    this.hIn = f(seqs * C);
    this.hOut = f(seqs * C);
    this.lnfRstd = f(seqs);
    this.logits = f(seqs * V);
  }
}

/** Runs steps of sampling for a model, on ordinary arrays. */
export class CachedForward implements StepForward {
  private buffers: StepBuffers | null = null;

  constructor(readonly model: Transformer) {}

  openCache(capacity: number): KvCache {
    return new KvCache(this.model.config, this.model.dtype, capacity);
  }

  closeCache(): void {} // the garbage collector frees its arrays

  copyPrefix(fromCache: SequenceCache, toCache: SequenceCache, length: number): void {
    const [from, to] = [fromCache, toCache].map((cache) => {
      if (!(cache instanceof KvCache)) throw new EngineError("copy caches of the forward that opened them");
      return cache;
    }) as [KvCache, KvCache];
    checkCopy(from, to, length);
    const { dModel: C, nHeads: H, nLayers: L } = this.model.config;
    const D = C / H;
    for (let l = 0; l < L; l++) {
      for (const [src, dst] of [
        [from.keys[l]!, to.keys[l]!],
        [from.values[l]!, to.values[l]!],
      ] as const) {
        // (H, capacity, D): each head's rows start at its own capacity's stride
        for (let h = 0; h < H; h++) {
          dst.set(src.subarray(h * from.capacity * D, (h * from.capacity + length) * D), h * to.capacity * D);
        }
      }
    }
    to.length = length;
  }

  step(sequenceCaches: readonly SequenceCache[], newTokens: readonly (readonly number[])[]): Floats {
    const { dModel: C, nHeads: H, dFF: F, vocabSize: V, normEps: eps, nLayers: L } = this.model.config;
    const D = C / H;
    const scale = 1 / Math.sqrt(D);
    const caches = sequenceCaches.map((cache) => {
      if (!(cache instanceof KvCache)) throw new EngineError("step a cache with the forward that opened it");
      return cache;
    });
    const S = caches.length;
    const N = checkStep(caches, newTokens, V);
    const b = this.buffersFor(N, S);
    const tokens = new Int32Array(N); // (N)
    const positions = new Int32Array(N); // (N)
    const lastRows = new Int32Array(S); // (S)
    let row = 0;
    for (let s = 0; s < S; s++) {
      const past = caches[s]!.length;
      newTokens[s]!.forEach((token, i) => {
        tokens[row] = token;
        positions[row] = past + i;
        row += 1;
      });
      lastRows[s] = row - 1;
    }

    const w = this.model.weights;
    encoderForward(b.x, tokens, w.tokEmb, N, C);
    for (let l = 0; l < L; l++) {
      const lw = w.layers[l]!;
      rmsnormForward(b.ln, b.rstd, b.x, lw.attnNorm, N, C, eps);
      linearForward(b.qkv, b.ln, lw.wqkv, N, C, 3 * C);
      ropeApply(b.qkv, positions, N, C, H, this.model.rope, 1);
      row = 0;
      for (let s = 0; s < S; s++) {
        const cache = caches[s]!;
        const n = newTokens[s]!.length;
        const cap = cache.capacity;
        const keys = cache.keys[l]!; // (H, cap, D)
        const values = cache.values[l]!; // (H, cap, D)
        for (let i = 0; i < n; i++) {
          const src = (row + i) * 3 * C;
          for (let h = 0; h < H; h++) {
            const dst = (h * cap + cache.length + i) * D;
            for (let d = 0; d < D; d++) {
              keys[dst + d] = b.qkv[src + C + h * D + d]!;
              values[dst + d] = b.qkv[src + 2 * C + h * D + d]!;
            }
          }
        }
        // each new row attends over its past and itself, with the training forward's kernels
        for (let i = 0; i < n; i++) {
          const r = row + i;
          const nKeys = cache.length + i + 1;
          for (let h = 0; h < H; h++) {
            const q = b.qkv.subarray(r * 3 * C + h * D, r * 3 * C + (h + 1) * D); // (1, D)
            const kh = keys.subarray(h * cap * D, (h * cap + nKeys) * D); // (nKeys, D)
            const vh = values.subarray(h * cap * D, (h * cap + nKeys) * D); // (nKeys, D)
            matmul(b.probs, q, kh, 1, nKeys, D, false, true, false);
            softmaxRow(b.probs, 0, nKeys, scale);
            matmul(
              b.atty.subarray(r * C + h * D, r * C + (h + 1) * D),
              b.probs,
              vh,
              1,
              D,
              nKeys,
              false,
              false,
              false,
            );
          }
        }
        row += n;
      }
      linearForward(b.x, b.atty, lw.wo, N, C, C, true);
      rmsnormForward(b.ln, b.rstd, b.x, lw.mlpNorm, N, C, eps);
      linearForward(b.h13, b.ln, lw.w13, N, C, 2 * F);
      swigluForward(b.act, b.sig, b.h13, N, F);
      linearForward(b.x, b.act, lw.w2, N, F, C, true);
    }
    for (let s = 0; s < S; s++) caches[s]!.length += newTokens[s]!.length;
    gatherRows(b.hIn, b.x, lastRows, C);
    rmsnormForward(b.hOut, b.lnfRstd, b.hIn, w.norm, S, C, eps);
    linearForward(b.logits, b.hOut, w.tokEmb, S, C, V);
    return b.logits.subarray(0, S * V);
  }

  private buffersFor(N: number, S: number): StepBuffers {
    const b = this.buffers;
    if (b !== null && b.rows >= N && b.seqs >= S) return b;
    this.buffers = new StepBuffers(this.model, Math.max(N, b?.rows ?? 0), Math.max(S, b?.seqs ?? 0));
    return this.buffers;
  }
}
