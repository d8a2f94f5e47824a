/**
 * The whole training state of a trainer, for exact resume: the weights (a normal checkpoint, so the
 * folder also loads as a model), plus the AdamW moments and step count in `optimizer.safetensors`
 * (tensors `adam.m` and `adam.v`, flat in the parameter layout, F32; the step in its metadata).
 * Gradients are not saved: a state is taken between optimizer steps, when they are zero.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { loadCheckpoint, saveCheckpoint } from "../checkpoint/checkpoint.ts";
import { decodeSafetensors, encodeSafetensors } from "../checkpoint/safetensors.ts";
import type { ModelConfig } from "../config.ts";
import { CheckpointError } from "../errors.ts";
import type { Floats } from "../floats.ts";
import type { AdamW } from "../optim/adamw.ts";

/** The optimizer file of a trainer-state folder. */
export const OPTIMIZER_FILE = "optimizer.safetensors";

/** Writes weights (config.json, model.safetensors) and the optimizer state into `dir`. */
export async function saveTrainerState(
  dir: string,
  config: ModelConfig,
  params: Floats,
  optimizer: AdamW,
): Promise<void> {
  await mkdir(dir, { recursive: true });
  await saveCheckpoint(dir, config, params);
  const P = params.length;
  const bytes = encodeSafetensors(
    [
      { name: "adam.m", shape: [P], data: optimizer.m },
      { name: "adam.v", shape: [P], data: optimizer.v },
    ],
    { producer: "@vf-rl/engine", step: String(optimizer.step) },
  );
  const path = join(dir, OPTIMIZER_FILE);
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, bytes);
  await rename(tmp, path);
}

/** What a trainer-state folder holds. */
export interface TrainerState {
  config: ModelConfig;
  params: Float32Array;
  m: Float32Array;
  v: Float32Array;
  step: number;
}

/** Reads a folder written by saveTrainerState, checking that the moments fit the weights. */
export async function loadTrainerState(dir: string): Promise<TrainerState> {
  const { config, params } = await loadCheckpoint(dir);
  const path = join(dir, OPTIMIZER_FILE);
  const bytes = await readFile(path).catch((error: NodeJS.ErrnoException) => {
    throw new CheckpointError(
      `cannot read ${path} (${error.code ?? error.message}): pass a folder written by saveState (saveWeights keeps no optimizer state)`,
      path,
    );
  });
  const { tensors, metadata } = decodeSafetensors(bytes, path);
  const moment = (name: string): Float32Array => {
    const tensor = tensors.get(name);
    if (tensor === undefined || tensor.dtype !== "F32" || tensor.data === null) {
      throw new CheckpointError(`${path} has no F32 tensor ${name}: rewrite it with saveState`, path);
    }
    if (tensor.data.length !== params.length) {
      throw new CheckpointError(
        `${path}: ${name} has ${tensor.data.length} values but the model has ${params.length} parameters: the optimizer state belongs to another model`,
        path,
      );
    }
    return tensor.data as Float32Array;
  };
  const step = Number(metadata?.step);
  if (!Number.isInteger(step) || step < 0) {
    throw new CheckpointError(`${path} has no step count in its metadata: rewrite it with saveState`, path);
  }
  return { config, params, m: moment("adam.m"), v: moment("adam.v"), step };
}
