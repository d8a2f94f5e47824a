/**
 * The model: a decoder-only transformer whose forward and backward passes chain the hand-written
 * layers of layers.ts in model order (after llm.c's train_gpt2.c), over buffers allocated once.
 *
 *   tokens → embedding → L × [ RMSNorm → q,k,v → rotary → causal attention → wo → + residual
 *                              RMSNorm → w1,w3 → SwiGLU → w2 → + residual ]
 *          → final RMSNorm → logits = h · tok_embᵀ (the embedding is tied with the output head)
 *
 * A batch is packed: the tokens of all sequences are laid end to end as the rows of one matrix, so
 * sequences of different lengths cost no padding. Only attention and rotary positions look at
 * sequence boundaries; everything else works row by row.
 *
 * Legend of dimensions (the shape comment on every buffer uses these):
 *   N  rows of a packed batch (input tokens of all sequences, end to end)
 *   S  sequences; sequence s owns rows seqStarts[s] .. seqStarts[s] + T - 1, T = seqLens[s]
 *   M  output rows: the rows whose next-token logits are wanted
 *   C  channels (dModel)    H  heads    D = C/H head size    F  MLP width (dFF)
 *   V  vocabulary           L  layers   P  parameters
 */
import type { ModelConfig } from "./config.ts";
import { EngineError } from "./errors.ts";
import { allocFloats, type DType, dtypeOf, type Floats } from "./floats.ts";
import {
  type AttentionScratch,
  attentionBackward,
  attentionForward,
  attentionScratch,
  encoderBackward,
  encoderForward,
  gatherRows,
  linearBackward,
  linearForward,
  type RopeTable,
  rmsnormBackward,
  rmsnormForward,
  ropeApply,
  ropeTable,
  scatterRowsBackward,
  swigluBackward,
  swigluForward,
} from "./layers.ts";
import type { PackedBatch } from "./packed-batch.ts";
import { type ModelTensors, parameterCount, tensorViews } from "./params.ts";

/** The activations of one block, kept from the forward pass for the backward pass. */
interface LayerActivations {
  ln1: Floats; // (N, C)
  ln1Rstd: Floats; // (N)
  qkv: Floats; // (N, 3C), q and k rotated
  atty: Floats; // (N, C)
  resid2: Floats; // (N, C) block input + attention
  ln2: Floats; // (N, C)
  ln2Rstd: Floats; // (N)
  h13: Floats; // (N, 2F)
  sig: Floats; // (N, F) sigmoid of the gate
  act: Floats; // (N, F)
}

/** Every buffer of a forward and backward pass, allocated once for a capacity and reused. */
class Activations {
  readonly capacity: { N: number; M: number };
  readonly residuals: Floats[]; // L+1 × (N, C): the residual stream entering each block, then the output
  readonly layers: LayerActivations[];
  readonly hIn: Floats; // (M, C) final residual at the output rows
  readonly lnfRstd: Floats; // (M)
  readonly hOut: Floats; // (M, C) after the final norm
  readonly logits: Floats; // (M, V)
  // backward
  readonly dresid: Floats; // (N, C) gradient of the residual stream
  readonly dln: Floats; // (N, C)
  readonly dqkv: Floats; // (N, 3C)
  readonly datty: Floats; // (N, C)
  readonly dh13: Floats; // (N, 2F)
  readonly dact: Floats; // (N, F)
  readonly dhOut: Floats; // (M, C)
  readonly dhIn: Floats; // (M, C)
  readonly attScratch: AttentionScratch;

  constructor(config: ModelConfig, dtype: DType, N: number, M: number) {
    const { dModel: C, dFF: F, vocabSize: V, nLayers: L } = config;
    const f = (n: number): Floats => allocFloats(dtype, n);
    this.capacity = { N, M };
    this.residuals = Array.from({ length: L + 1 }, () => f(N * C));
    this.layers = Array.from({ length: L }, () => ({
      ln1: f(N * C),
      ln1Rstd: f(N),
      qkv: f(N * 3 * C),
      atty: f(N * C),
      resid2: f(N * C),
      ln2: f(N * C),
      ln2Rstd: f(N),
      h13: f(N * 2 * F),
      sig: f(N * F),
      act: f(N * F),
    }));
    this.hIn = f(M * C);
    this.lnfRstd = f(M);
    this.hOut = f(M * C);
    this.logits = f(M * V);
    this.dresid = f(N * C);
    this.dln = f(N * C);
    this.dqkv = f(N * 3 * C);
    this.datty = f(N * C);
    this.dh13 = f(N * 2 * F);
    this.dact = f(N * F);
    this.dhOut = f(M * C);
    this.dhIn = f(M * C);
    this.attScratch = attentionScratch(config, dtype);
  }

  fits(N: number, M: number): boolean {
    return N <= this.capacity.N && M <= this.capacity.M;
  }
}

/** Options of a Transformer: its dtype, and existing buffers to compute on (e.g. shared memory). */
export interface TransformerOptions {
  /** Element type of every buffer (default: that of `params`, else "f32"; "f64" is for gradient checks). */
  dtype?: DType;
  /** Flat parameter buffer of P floats (default: zeros; fill it with initParameters or a checkpoint). */
  params?: Floats;
  /** Flat gradient buffer of P floats (default: zeros). */
  grads?: Floats;
}

/**
 * A transformer's weights, gradients and activation buffers, with `forward` and `backward`.
 * `backward` must follow the `forward` of the same batch; gradients accumulate until zeroed.
 */
export class Transformer {
  readonly config: ModelConfig;
  readonly dtype: DType;
  readonly params: Floats; // (P)
  readonly grads: Floats; // (P)
  readonly weights: ModelTensors;
  readonly gradients: ModelTensors;
  readonly rope: RopeTable;
  private acts: Activations | null = null;

  constructor(config: ModelConfig, options: TransformerOptions = {}) {
    const dtype = options.dtype ?? (options.params ? dtypeOf(options.params) : "f32");
    const P = parameterCount(config);
    for (const buffer of [options.params, options.grads]) {
      if (buffer !== undefined && dtypeOf(buffer) !== dtype) {
        throw new EngineError(
          `a ${dtypeOf(buffer)} buffer was given to a ${dtype} model: allocate it with allocFloats("${dtype}", ...)`,
        );
      }
    }
    this.config = config;
    this.dtype = dtype;
    this.params = options.params ?? allocFloats(dtype, P);
    this.grads = options.grads ?? allocFloats(dtype, P);
    if (this.params.length !== P || this.grads.length !== P) {
      throw new EngineError(
        `parameter buffers hold ${this.params.length} and ${this.grads.length} floats but this config has ${P}: ` +
          "allocate them with parameterCount(config)",
      );
    }
    this.weights = tensorViews(config, this.params);
    this.gradients = tensorViews(config, this.grads);
    this.rope = ropeTable(config, dtype);
  }

  /** Sets every gradient to zero. */
  zeroGrad(): void {
    this.grads.fill(0);
  }

  /** Runs the batch and returns the logits (M, V) of its output rows, valid until the next forward. */
  forward(batch: PackedBatch): Floats {
    const { dModel: C, nHeads: H, dFF: F, vocabSize: V, normEps: eps } = this.config;
    this.checkBatch(batch);
    const N = batch.tokens.length;
    const M = batch.outputRows.length;
    const acts = this.activationsFor(batch);
    const w = this.weights;

    encoderForward(acts.residuals[0]!, batch.tokens, w.tokEmb, N, C);
    for (let l = 0; l < this.config.nLayers; l++) {
      const lw = w.layers[l]!;
      const la = acts.layers[l]!;
      const resid = acts.residuals[l]!; // (N, C)
      const out = acts.residuals[l + 1]!; // (N, C)
      // attention sub-block
      rmsnormForward(la.ln1, la.ln1Rstd, resid, lw.attnNorm, N, C, eps);
      linearForward(la.qkv, la.ln1, lw.wqkv, N, C, 3 * C);
      ropeApply(la.qkv, batch.positions, N, C, H, this.rope, 1);
      attentionForward(la.atty, la.qkv, batch, C, H, acts.attScratch);
      la.resid2.set(resid.subarray(0, N * C));
      linearForward(la.resid2, la.atty, lw.wo, N, C, C, true);
      // MLP sub-block
      rmsnormForward(la.ln2, la.ln2Rstd, la.resid2, lw.mlpNorm, N, C, eps);
      linearForward(la.h13, la.ln2, lw.w13, N, C, 2 * F);
      swigluForward(la.act, la.sig, la.h13, N, F);
      out.set(la.resid2.subarray(0, N * C));
      linearForward(out, la.act, lw.w2, N, F, C, true);
    }
    gatherRows(acts.hIn, acts.residuals[this.config.nLayers]!, batch.outputRows, C);
    rmsnormForward(acts.hOut, acts.lnfRstd, acts.hIn, w.norm, M, C, eps);
    linearForward(acts.logits, acts.hOut, w.tokEmb, M, C, V);
    return acts.logits.subarray(0, M * V);
  }

  /** Accumulates into `grads` the gradient of a loss whose gradient w.r.t. the logits is dlogits (M, V). */
  backward(batch: PackedBatch, dlogits: Floats): void {
    const { dModel: C, nHeads: H, dFF: F, vocabSize: V } = this.config;
    const acts = this.acts;
    if (acts === null)
      throw new EngineError("backward called before forward: run forward on the batch first");
    const N = batch.tokens.length;
    const M = batch.outputRows.length;
    const w = this.weights;
    const g = this.gradients;

    // output head (tied embedding) and final norm
    linearBackward(acts.dhOut, g.tokEmb, dlogits, acts.hOut, w.tokEmb, M, C, V);
    acts.dhIn.fill(0, 0, M * C);
    rmsnormBackward(acts.dhIn, g.norm, acts.dhOut, acts.hIn, w.norm, acts.lnfRstd, M, C);
    const dresid = acts.dresid; // (N, C), the gradient of the residual stream, carried down the blocks
    dresid.fill(0, 0, N * C);
    scatterRowsBackward(dresid, acts.dhIn, batch.outputRows, C);

    for (let l = this.config.nLayers - 1; l >= 0; l--) {
      const lw = w.layers[l]!;
      const lg = g.layers[l]!;
      const la = acts.layers[l]!;
      // MLP sub-block: out = resid2 + w2(act); dresid flows through unchanged and into the MLP
      linearBackward(acts.dact, lg.w2, dresid, la.act, lw.w2, N, F, C);
      swigluBackward(acts.dh13, acts.dact, la.h13, la.sig, N, F);
      linearBackward(acts.dln, lg.w13, acts.dh13, la.ln2, lw.w13, N, C, 2 * F);
      rmsnormBackward(dresid, lg.mlpNorm, acts.dln, la.resid2, lw.mlpNorm, la.ln2Rstd, N, C);
      // attention sub-block: resid2 = resid + wo(atty)
      linearBackward(acts.datty, lg.wo, dresid, la.atty, lw.wo, N, C, C);
      attentionBackward(acts.dqkv, acts.datty, la.qkv, batch, C, H, acts.attScratch);
      ropeApply(acts.dqkv, batch.positions, N, C, H, this.rope, -1);
      linearBackward(acts.dln, lg.wqkv, acts.dqkv, la.ln1, lw.wqkv, N, C, 3 * C);
      rmsnormBackward(dresid, lg.attnNorm, acts.dln, acts.residuals[l]!, lw.attnNorm, la.ln1Rstd, N, C);
    }
    encoderBackward(g.tokEmb, dresid, batch.tokens, N, C);
  }

  private activationsFor(batch: PackedBatch): Activations {
    const N = batch.tokens.length;
    const M = batch.outputRows.length;
    if (this.acts === null || !this.acts.fits(N, M)) {
      // grow with headroom so a slowly growing batch does not reallocate every step
      const c = this.acts?.capacity ?? { N: 0, M: 0 };
      const grow = (need: number, have: number): number => (need <= have ? have : Math.ceil(need * 1.25));
      this.acts = new Activations(
        this.config,
        this.dtype,
        grow(Math.max(N, 1), c.N),
        grow(Math.max(M, 1), c.M),
      );
    }
    return this.acts;
  }

  private checkBatch(batch: PackedBatch): void {
    const { vocabSize, maxSeqLen } = this.config;
    const N = batch.tokens.length;
    for (let n = 0; n < N; n++) {
      const token = batch.tokens[n]!;
      if (token < 0 || token >= vocabSize) {
        throw new EngineError(
          `token id ${token} at row ${n} is outside the vocabulary of ${vocabSize}: encode text with this model's tokenizer`,
        );
      }
      if (batch.positions[n]! >= maxSeqLen) {
        throw new EngineError(
          `position ${batch.positions[n]} at row ${n} is beyond the context of ${maxSeqLen} tokens: shorten the sequence`,
        );
      }
    }
    for (const row of batch.outputRows) {
      if (row < 0 || row >= N) {
        throw new EngineError(
          `output row ${row} is outside the batch of ${N} rows: pass row indices of the batch`,
        );
      }
    }
  }
}
