/**
 * Where everything of the WebAssembly forward (wasm-cached-forward.ts) lives in its one memory, in
 * floats (or ints: both are 4 bytes):
 *
 *   weights      (P)          a copy of the model's parameters, laid out as the flat buffer
 *   logits       (O, V)       each stepped sequence's logits, O at most per pass
 *   buffers                   the activations of R rows
 *   plan         (4·N ints)   the rows of a pass: token, position, cache slot, output index
 *   slots        (S, slot)    each open sequence's keys and values: L × [keys (H, T, D), values (H, T, D)]
 *
 * R = CHUNK_ROWS rows run through the layers together, N = planRows rows per pass (a step of more
 * rows or sequences makes several passes), O = MAX_OUTPUTS sequences per pass, T = maxSeqLen.
 */
import type { ModelConfig } from "../config.ts";
import { parameterCount, tensorViews } from "../params.ts";

/**
 * Rows run through the layers together: enough for full-speed products (the kernels work in tiles
 * of four rows), few enough that a sampler's memory starts small.
 */
export const CHUNK_ROWS = 128;
/** Most sequences one pass steps (a step of more makes several passes). */
export const MAX_OUTPUTS = 256;

/** Float offsets of the activations. */
export interface DecodeBuffers {
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
}

/** Float (and int) offsets of every region. */
export interface DecodeLayout {
  tokEmb: number; // (V, C)
  layers: { attnNorm: number; wqkv: number; wo: number; mlpNorm: number; w13: number; w2: number }[];
  norm: number; // (C)
  params: number; // P
  logits: number; // (MAX_OUTPUTS, V)
  buffers: DecodeBuffers;
  planRows: number; // N, rows one pass holds: at least one whole prompt
  tokens: number; // (N) ints
  positions: number; // (N) ints
  slotOf: number; // (N) ints: the row's cache slot
  outputOf: number; // (N) ints: where its logits go (0 .. MAX_OUTPUTS), or -1 for none
  slots: number; // slot i at slots + i·slotSize
  slotSize: number;
}

const layouts = new Map<string, DecodeLayout>();

/** The layout for a model with this config (worked out once per config). */
export function decodeLayout(config: ModelConfig): DecodeLayout {
  const key = JSON.stringify(config);
  let layout = layouts.get(key);
  if (layout === undefined) {
    layout = layoutOf(config);
    layouts.set(key, layout);
  }
  return layout;
}

function layoutOf(config: ModelConfig): DecodeLayout {
  const { dModel: C, dFF: F, vocabSize: V, maxSeqLen: T, nLayers: L } = config;
  const R = CHUNK_ROWS;
  const P = parameterCount(config);
  // tensor offsets, read off views of a buffer laid out as the parameters are
  const w = tensorViews(config, new Float32Array(P));
  const offset = (v: Float32Array | Float64Array): number => v.byteOffset / 4;
  let next = P;
  const take = (floats: number): number => {
    const start = (next + 3) & ~3; // 16-byte aligned
    next = start + floats;
    return start;
  };
  const planRows = Math.max(8192, T);
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
    params: P,
    logits: take(MAX_OUTPUTS * V),
    buffers: {
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
    },
    planRows,
    tokens: take(planRows),
    positions: take(planRows),
    slotOf: take(planRows),
    outputOf: take(planRows),
    slots: take(0),
    slotSize: L * 2 * T * C,
  };
}
