/**
 * The in-process trainer: the trainer protocol implemented directly on a Transformer in this
 * process. The reference implementation of `Trainer`; an HTTP backend wraps the same calls.
 */
import { isDeepStrictEqual } from "node:util";
import type { z } from "zod";
import { loadCheckpoint, saveCheckpoint } from "../checkpoint/checkpoint.ts";
import { type ModelConfig, type ModelConfigInput, parseModelConfig } from "../config.ts";
import { BatchError, CheckpointError, EngineError } from "../errors.ts";
import { evaluateLoss, type LossSums } from "../losses/loss.ts";
import { Transformer } from "../model.ts";
import { AdamW } from "../optim/adamw.ts";
import { clipGradNorm } from "../optim/grad-clip.ts";
import { initParameters, tensorSpecs } from "../params.ts";
import { BatchSampler, sampleBatch } from "../sampling/batch-sampler.ts";
import { countTrainedTokens, packTrainingBatch, validateBatch } from "./pack-batch.ts";
import {
  AdamParams,
  type AdamParamsInput,
  Batch,
  type BatchItem,
  type ForwardBackwardResult,
  Loss,
  type LossInput,
  type OptimStepResult,
  SampleRequest,
  type SampleRequestInput,
  type SampleResult,
  type SaveWeightsResult,
  type Trainer,
} from "./protocol.ts";

/** Where the weights of a new trainer come from: a fresh model, or a checkpoint directory. */
export type LocalTrainerOptions =
  | {
      /** Architecture of a freshly initialised model. */
      config: ModelConfigInput;
      /** Seed of the initialisation (default 0); the same seed gives the same weights. */
      seed?: number;
    }
  | {
      /** A directory written by saveWeights (config.json and model.safetensors). */
      checkpoint: string;
    };

/**
 * Creates an in-process trainer.
 *
 * @example
 * const trainer = await createLocalTrainer({ config: { vocabSize: 263, dModel: 64, nLayers: 2, nHeads: 4, dFF: 256, maxSeqLen: 128 } });
 * await trainer.forwardBackward(batch, { type: "cross_entropy" });
 * await trainer.optimStep({ learningRate: 1e-3 });
 */
export async function createLocalTrainer(options: LocalTrainerOptions): Promise<LocalTrainer> {
  if ("checkpoint" in options) {
    const { config, params } = await loadCheckpoint(options.checkpoint);
    const model = new Transformer(config);
    model.params.set(params);
    return new LocalTrainer(model);
  }
  const config = parseModelConfig(options.config);
  const model = new Transformer(config);
  initParameters(config, model.params, options.seed ?? 0);
  return new LocalTrainer(model);
}

/** The trainer protocol on a model held in this process. */
export class LocalTrainer implements Trainer {
  private readonly optimizer: AdamW;
  private readonly sampler: BatchSampler;
  private closed = false;

  constructor(readonly model: Transformer) {
    this.optimizer = new AdamW(tensorSpecs(model.config), model.dtype);
    this.sampler = new BatchSampler(model);
  }

  get config(): ModelConfig {
    return this.model.config;
  }

  async forwardBackward(batch: Batch, loss: LossInput): Promise<ForwardBackwardResult> {
    return this.run(batch, loss, true);
  }

  async forward(batch: Batch, loss: LossInput): Promise<ForwardBackwardResult> {
    return this.run(batch, loss, false);
  }

  async optimStep(params: AdamParamsInput): Promise<OptimStepResult> {
    this.checkOpen();
    const hp = parseOrThrow(AdamParams, params, "adam params");
    const gradNorm = clipGradNorm(this.model.grads, hp.gradClipNorm);
    this.optimizer.update(this.model.params, this.model.grads, hp, hp.learningRate);
    this.model.zeroGrad();
    return { step: this.optimizer.step, gradNorm, learningRate: hp.learningRate };
  }

  async saveWeights(dir: string): Promise<SaveWeightsResult> {
    this.checkOpen();
    await saveCheckpoint(dir, this.model.config, this.model.params);
    return { path: dir };
  }

  async loadWeights(dir: string): Promise<void> {
    this.checkOpen();
    const { config, params } = await loadCheckpoint(dir);
    if (!isDeepStrictEqual(config, this.model.config)) {
      throw new CheckpointError(
        `the checkpoint in ${dir} has config ${JSON.stringify(config)} but this trainer's model has ` +
          `${JSON.stringify(this.model.config)}: load it into a trainer created from it (createLocalTrainer({ checkpoint }))`,
        dir,
      );
    }
    this.model.params.set(params);
    this.model.zeroGrad();
    this.optimizer.reset();
  }

  async sample(request: SampleRequestInput): Promise<SampleResult> {
    this.checkOpen();
    const r = parseOrThrow(SampleRequest, request, "sample request");
    return { samples: sampleBatch(this.sampler, r.prompts, r.numSamples, r.params) };
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private run(input: Batch, lossInput: LossInput, withGrad: boolean): ForwardBackwardResult {
    this.checkOpen();
    const loss = parseOrThrow(Loss, lossInput, "loss");
    const parsed = Batch.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const [item, field] = issue.path;
      throw new BatchError(
        `batch item ${String(item)}: ${issue.path.slice(1).join(".")}: ${issue.message}: ` +
          "give tokens, mask (0/1), and optionally samplerLogprobs and advantages, one value per token",
        typeof item === "number" ? item : -1,
        String(field ?? ""),
      );
    }
    const items: BatchItem[] = parsed.data;
    validateBatch(items, this.model.config, loss);
    const numTokens = countTrainedTokens(items);
    const tb = packTrainingBatch(items);
    const M = tb.packed.outputRows.length;
    const V = this.model.config.vocabSize;
    const logits = this.model.forward(tb.packed);
    const logprobs = new Float64Array(M);
    // the loss writes dlogits over the logits in place: they are not needed afterwards
    const dlogits = withGrad ? logits : null;
    const sums = evaluateLoss(
      loss,
      logits,
      tb.targets,
      M,
      V,
      numTokens > 0 ? 1 / numTokens : 0,
      dlogits,
      logprobs,
    );
    if (withGrad && M > 0) this.model.backward(tb.packed, logits);
    return metrics(
      sums,
      numTokens,
      items,
      tb.rowItem,
      tb.rowPosition,
      logprobs,
      tb.targets.samplerLogprobs !== null,
    );
  }

  private checkOpen(): void {
    if (this.closed)
      throw new EngineError("this trainer is closed: create a new one with createLocalTrainer");
  }
}

function metrics(
  sums: LossSums,
  numTokens: number,
  items: readonly BatchItem[],
  rowItem: Int32Array,
  rowPosition: Int32Array,
  logprobs: Float64Array,
  hasSampler: boolean,
): ForwardBackwardResult {
  const mean = (x: number): number => (numTokens > 0 ? x / numTokens : 0);
  const perItem = items.map((item) => new Array<number>(item.tokens.length).fill(0));
  for (let m = 0; m < logprobs.length; m++) perItem[rowItem[m]!]![rowPosition[m]!] = logprobs[m]!;
  return {
    loss: mean(sums.loss),
    entropy: mean(sums.entropy),
    mismatchKl: hasSampler ? mean(sums.mismatchKl) : null,
    maskedShare: mean(sums.masked),
    numTokens,
    logprobs: perItem,
  };
}

/** Parses a protocol value, throwing an EngineError that lists every bad field. */
function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => `${i.path.map(String).join(".") || "(root)"}: ${i.message}`);
  throw new EngineError(`invalid ${what}: ${issues.join("; ")}: fix these fields`);
}
