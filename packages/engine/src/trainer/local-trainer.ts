/**
 * The in-process trainer: the trainer protocol implemented directly on a Transformer in this
 * process. The reference implementation of `Trainer`; an HTTP backend wraps the same calls.
 */
import { isDeepStrictEqual } from "node:util";
import type { z } from "zod";
import { loadCheckpoint, saveCheckpoint } from "../checkpoint/checkpoint.ts";
import { type ModelConfig, type ModelConfigInput, parseModelConfig } from "../config.ts";
import { BatchError, CheckpointError, EngineError, SamplingError } from "../errors.ts";
import { allocFloats } from "../floats.ts";
import { Transformer } from "../model.ts";
import { AdamW } from "../optim/adamw.ts";
import { clipGradNorm } from "../optim/grad-clip.ts";
import { ShardPool } from "../parallel/shard-pool.ts";
import { initParameters, parameterCount, tensorSpecs } from "../params.ts";
import { BatchSampler, sampleBatch } from "../sampling/batch-sampler.ts";
import { issueLines } from "../schema-issues.ts";
import { countTrainedTokens, splitItems, validateBatch } from "./pack-batch.ts";
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
import { runShard, type ShardResult } from "./run-shard.ts";
import { loadTrainerState, saveTrainerState } from "./trainer-state.ts";

/** Where the weights of a new trainer come from (a fresh model, or a checkpoint directory), and its threads. */
export type LocalTrainerOptions = (
  | {
      /** Architecture of a freshly initialised model. */
      config: ModelConfigInput;
      /** Seed of the initialisation (default 0); the same seed gives the same weights. */
      seed?: number;
    }
  | {
      /** A directory written by saveWeights (config.json and model.safetensors). */
      checkpoint: string;
    }
) & {
  /**
   * Worker threads that split each batch between them (default 1: compute on the calling thread).
   * Runs are bit-for-bit repeatable for a given thread count; different counts differ in rounding.
   */
  threads?: number;
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
  const threads = options.threads ?? 1;
  if (!Number.isInteger(threads) || threads < 1) {
    throw new EngineError(
      `threads must be a positive integer, not ${threads}: pass 1 or the number of cores`,
    );
  }
  let config: ModelConfig;
  let weights: Float32Array | null = null;
  if ("checkpoint" in options) {
    ({ config, params: weights } = await loadCheckpoint(options.checkpoint));
  } else {
    config = parseModelConfig(options.config);
  }
  // with workers the parameters live on shared memory, where the workers read them
  const model = new Transformer(config, { params: allocFloats("f32", parameterCount(config), threads > 1) });
  if (weights !== null) model.params.set(weights);
  else initParameters(config, model.params, "seed" in options ? (options.seed ?? 0) : 0);
  const pool = threads > 1 ? await ShardPool.start(config, model.params as Float32Array, threads) : null;
  return new LocalTrainer(model, pool);
}

/**
 * The trainer protocol on a model held in this process. Calls run one at a time in the order they
 * were made, even when a caller does not await them: each sees the weights the previous one left.
 */
export class LocalTrainer implements Trainer {
  private readonly optimizer: AdamW;
  private readonly sampler: BatchSampler;
  private closed = false;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly model: Transformer,
    private readonly pool: ShardPool | null = null,
  ) {
    this.optimizer = new AdamW(tensorSpecs(model.config), model.dtype);
    this.sampler = new BatchSampler(model);
  }

  get config(): ModelConfig {
    return this.model.config;
  }

  forwardBackward(batch: Batch, loss: LossInput): Promise<ForwardBackwardResult> {
    return this.inTurn(() => this.run(batch, loss, true));
  }

  forward(batch: Batch, loss: LossInput): Promise<ForwardBackwardResult> {
    return this.inTurn(() => this.run(batch, loss, false));
  }

  optimStep(params: AdamParamsInput): Promise<OptimStepResult> {
    return this.inTurn(async () => {
      const hp = parseOrThrow(AdamParams, params, "adam params");
      const gradNorm = clipGradNorm(this.model.grads, hp.gradClipNorm);
      this.optimizer.update(this.model.params, this.model.grads, hp, hp.learningRate);
      this.model.zeroGrad();
      return { step: this.optimizer.step, gradNorm, learningRate: hp.learningRate };
    });
  }

  saveWeights(dir: string): Promise<SaveWeightsResult> {
    return this.inTurn(async () => {
      await saveCheckpoint(dir, this.model.config, this.model.params);
      return { path: dir };
    });
  }

  loadWeights(dir: string): Promise<void> {
    return this.inTurn(() => this.replaceWeights(dir));
  }

  saveState(dir: string): Promise<SaveWeightsResult> {
    return this.inTurn(async () => {
      await saveTrainerState(dir, this.model.config, this.model.params, this.optimizer);
      return { path: dir };
    });
  }

  loadState(dir: string): Promise<void> {
    return this.inTurn(async () => {
      const state = await loadTrainerState(dir);
      this.setWeights(dir, state.config, state.params);
      this.optimizer.m.set(state.m);
      this.optimizer.v.set(state.v);
      this.optimizer.step = state.step;
    });
  }

  sample(request: SampleRequestInput): Promise<SampleResult> {
    return this.inTurn(async () => {
      const r = parseOrThrow(SampleRequest, request, "sample request", SamplingError);
      return { samples: sampleBatch(this.sampler, r.prompts, r.numSamples, r.params) };
    });
  }

  close(): Promise<void> {
    const turn = this.queue.then(async () => {
      if (this.closed) return; // closing twice is fine
      this.closed = true;
      await this.pool?.close();
    });
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** Runs `call` after every earlier call has settled; a closed trainer refuses it. */
  private inTurn<T>(call: () => Promise<T>): Promise<T> {
    const turn = this.queue.then(() => {
      if (this.closed)
        throw new EngineError("this trainer is closed: create a new one with createLocalTrainer");
      return call();
    });
    this.queue = turn.catch(() => undefined); // a failed call does not block the next
    return turn;
  }

  private async replaceWeights(dir: string): Promise<void> {
    const { config, params } = await loadCheckpoint(dir);
    this.setWeights(dir, config, params);
  }

  /** Installs weights read from `dir` after checking they fit this model; moments restart at zero. */
  private setWeights(dir: string, config: ModelConfig, params: Float32Array): void {
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

  private async run(input: Batch, lossInput: LossInput, withGrad: boolean): Promise<ForwardBackwardResult> {
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
    const scale = numTokens > 0 ? 1 / numTokens : 0;
    if (this.pool === null) {
      return metrics([runShard(this.model, items, loss, withGrad, scale)], [0], items, numTokens);
    }
    const bounds = splitItems(items, this.pool.size);
    const starts = bounds.slice(0, -1);
    const shards = starts.map((start, i) => items.slice(start, bounds[i + 1]));
    const results = await this.pool.run(shards, loss, withGrad, scale);
    if (withGrad) {
      // add the workers' gradients in worker order: the same order every run
      const grads = this.model.grads;
      shards.forEach((shard, w) => {
        if (shard.length === 0) return;
        const g = this.pool!.grads[w]!;
        for (let i = 0; i < grads.length; i++) grads[i] = grads[i]! + g[i]!;
      });
    }
    return metrics(results, starts, items, numTokens);
  }
}

/** The protocol result from the shard results (shard i holds the items from `starts[i]` on). */
function metrics(
  shards: readonly ShardResult[],
  starts: readonly number[],
  items: readonly BatchItem[],
  numTokens: number,
): ForwardBackwardResult {
  const mean = (x: number): number => (numTokens > 0 ? x / numTokens : 0);
  const total = { loss: 0, entropy: 0, mismatchKl: 0, masked: 0 };
  const perItem = items.map((item) => new Array<number>(item.tokens.length).fill(0));
  shards.forEach((shard, i) => {
    total.loss += shard.sums.loss;
    total.entropy += shard.sums.entropy;
    total.mismatchKl += shard.sums.mismatchKl;
    total.masked += shard.sums.masked;
    for (let m = 0; m < shard.logprobs.length; m++) {
      perItem[starts[i]! + shard.rowItem[m]!]![shard.rowPosition[m]!] = shard.logprobs[m]!;
    }
  });
  const hasSampler = items.every((i) => i.samplerLogprobs !== undefined && i.advantages !== undefined);
  return {
    loss: mean(total.loss),
    entropy: mean(total.entropy),
    mismatchKl: hasSampler ? mean(total.mismatchKl) : null,
    maskedShare: mean(total.masked),
    numTokens,
    logprobs: perItem,
  };
}

/** Parses a protocol value, throwing an EngineError that lists every bad field. */
function parseOrThrow<S extends z.ZodType>(
  schema: S,
  input: unknown,
  what: string,
  ErrorClass: new (message: string) => EngineError = EngineError,
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ErrorClass(`invalid ${what}: ${issueLines(result.error).join("; ")}: fix these fields`);
}
