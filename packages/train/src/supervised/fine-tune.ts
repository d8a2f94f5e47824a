/**
 * `vf sft` as a function: reads the conversations (sft-sources.ts), opens the model to start from
 * in this process (a checkpoint, the built-in base model by default, or a fresh model of a given
 * architecture), turns the conversations into training sequences that fit its context, holds some
 * out for the eval loss when no source has held-out ones, and runs the loop (sft-loop.ts).
 * The engine's errors (a bad checkpoint or model config) come out as vf's.
 */
import {
  BASE_MODEL_DIR,
  createLocalTrainer,
  type LocalTrainer,
  type ModelConfig,
  parseModelConfig,
  tokenizer,
} from "@vf-rl/engine";
import { vfErrorOf } from "../engine-errors.ts";
import { sftItems } from "./sft-items.ts";
import { runSft, type SftProgress, type SftResult, type SftSettingsInput } from "./sft-loop.ts";
import { loadSftConversations, type SftSourceOptions } from "./sft-sources.ts";

/** The model a run starts from. */
export type StartingModel =
  /** An engine checkpoint folder (config.json and model.safetensors). */
  | { type: "checkpoint"; dir: string }
  /** A fresh model: the engine's config keys (dModel, nLayers, ...; vocabSize is the tokenizer's), checked here. */
  | { type: "fresh"; config: Record<string, unknown>; seed: number };

/** Options of `fineTune`. */
export interface FineTuneOptions {
  /** Where the conversations come from. */
  data: SftSourceOptions;
  /** The model to start from (default: the built-in base model). */
  model?: StartingModel;
  /** Worker threads of the engine (default 2). */
  threads?: number;
  /**
   * Conversations held out for the eval loss when no source has held-out ones, evenly spaced and
   * at most a tenth of the data (default 64; 0: none).
   */
  evalSize?: number;
  settings: SftSettingsInput;
  /** Receives one line per source, per set of conversations left out, and one describing the run. */
  log?: (line: string) => void;
  /** Called after every step. */
  onStep?: (progress: SftProgress) => void;
  /** Stops after the current step; the final checkpoint is still saved. */
  signal?: AbortSignal;
}

/**
 * Fine-tunes a model on conversations.
 *
 * @example
 * const result = await fineTune({
 *   data: { dataFiles: [], evalFiles: [], envIds: ["reverse-text"], envArgs: {} },
 *   settings: { steps: 300, outputDir: "outputs/sft" },
 * });
 * console.log(result.finalDir);
 */
export async function fineTune(options: FineTuneOptions): Promise<SftResult> {
  const log = options.log ?? (() => {});
  const sources = await loadSftConversations(options.data);
  for (const note of sources.notes) log(note);
  const trainer = await openModel(options.model ?? { type: "checkpoint", dir: BASE_MODEL_DIR }, options);
  try {
    const config = trainer.config;
    const { train, held } = sftItems(sources, {
      maxSeqLen: config.maxSeqLen,
      evalSize: options.evalSize ?? 64,
      log,
    });
    const { steps, batchSize } = options.settings;
    log(
      `training ${describe(config)} on ${train.length} conversations (${held.length} held out), ${steps} steps of ${batchSize ?? 32}`,
    );
    return await runSft({
      trainer,
      train,
      eval: held,
      settings: options.settings,
      ...(options.onStep ? { onStep: options.onStep } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } finally {
    await trainer.close();
  }
}

/** The trainer of the starting model, in this process. */
async function openModel(model: StartingModel, options: FineTuneOptions): Promise<LocalTrainer> {
  const threads = options.threads ?? 2;
  try {
    if (model.type === "checkpoint") return await createLocalTrainer({ checkpoint: model.dir, threads });
    const config = parseModelConfig({ vocabSize: tokenizer.vocabSize, ...model.config });
    return await createLocalTrainer({ config, seed: model.seed, threads });
  } catch (error) {
    throw vfErrorOf(error);
  }
}

function describe(c: ModelConfig): string {
  return `a model of dModel ${c.dModel}, ${c.nLayers} layers, ${c.nHeads} heads, context ${c.maxSeqLen}`;
}
