/**
 * @vf-rl/train/testing: what the train package's tests use, for tests of code built on it: the paths
 * of the toy `vowels` environment (a tiny fresh model learns it in a few dozen steps) and of
 * `consonants` (for runs of several environments), and a config of a tiny run on vowels.
 */
import { fileURLToPath } from "node:url";
import { initParameters, parameterCount, parseModelConfig, saveCheckpoint, tokenizer } from "@vf-rl/engine";
import type { TrainConfigInput } from "../config/train-config.ts";

/** Folder of the `vowels` environment package: reward = share of vowels in what the model writes. */
export const VOWELS_ENV = fileURLToPath(new URL("./envs/vowels", import.meta.url));

/** Folder of the `consonants` environment package, a second toy env for runs of several: reward = share of consonants. */
export const CONSONANTS_ENV = fileURLToPath(new URL("./envs/consonants", import.meta.url));

/** A raw config (as parsed from TOML) of a run that takes a few seconds: a fresh 1-layer model on `vowels`. */
export function tinyRunConfig(
  outputDir: string,
  overrides: Partial<TrainConfigInput> = {},
): Record<string, unknown> {
  return {
    model: { d_model: 32, n_layers: 1, n_heads: 4, max_seq_len: 64 },
    max_steps: 4,
    batch_size: 16,
    rollouts_per_example: 4,
    micro_batch_size: 8,
    output_dir: outputDir,
    sampling: { max_tokens: 12 },
    env: [{ id: VOWELS_ENV }],
    optimizer: { learning_rate: 3e-3 },
    ...overrides,
  };
}

/** The architecture of the tiny test models (as an engine ModelConfig). */
export const TINY_MODEL = {
  vocabSize: tokenizer.vocabSize,
  dModel: 32,
  nLayers: 1,
  nHeads: 4,
  dFF: 128,
  maxSeqLen: 64,
};

/** Options of `writeTinyModel`. */
export interface TinyModelOptions {
  /** Seed of the initial weights (default 0). */
  seed?: number;
  /** Context length (default TINY_MODEL's 64), for tests whose conversations are longer. */
  maxSeqLen?: number;
}

/** Writes a freshly initialised tiny model into `dir` and returns `dir`. */
export async function writeTinyModel(dir: string, options: TinyModelOptions = {}): Promise<string> {
  const { seed = 0, maxSeqLen = TINY_MODEL.maxSeqLen } = options;
  const config = parseModelConfig({ ...TINY_MODEL, maxSeqLen });
  const params = new Float32Array(parameterCount(config));
  initParameters(config, params, seed);
  await saveCheckpoint(dir, config, params);
  return dir;
}
