/**
 * A checkpoint is a directory with `config.json` (the ModelConfig) and `model.safetensors` (every
 * tensor, F32, PyTorch-style names). Loading checks that the two agree, tensor by tensor.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type ModelConfig, safeParseModelConfig } from "../config.ts";
import { CheckpointError, TensorMismatchError } from "../errors.ts";
import type { Floats } from "../floats.ts";
import { parameterCount, tensorSpecs } from "../params.ts";
import { decodeSafetensors, encodeSafetensors } from "./safetensors.ts";

/** The config file of a checkpoint directory. */
export const CONFIG_FILE = "config.json";
/** The weights file of a checkpoint directory. */
export const WEIGHTS_FILE = "model.safetensors";

/** Writes `config.json` and `model.safetensors` into `dir` (created if needed), each atomically. */
export async function saveCheckpoint(dir: string, config: ModelConfig, params: Floats): Promise<void> {
  await mkdir(dir, { recursive: true });
  const tensors = tensorSpecs(config).map((spec) => ({
    name: spec.name,
    shape: spec.shape,
    data: params.subarray(spec.offset, spec.offset + spec.size),
  }));
  await writeAtomically(join(dir, WEIGHTS_FILE), encodeSafetensors(tensors, { producer: "@vf-rl/engine" }));
  await writeAtomically(join(dir, CONFIG_FILE), `${JSON.stringify(config, null, 2)}\n`);
}

/** Reads a checkpoint directory: its config, and its weights as one flat buffer in the model's layout. */
export async function loadCheckpoint(dir: string): Promise<{ config: ModelConfig; params: Float32Array }> {
  const configPath = join(dir, CONFIG_FILE);
  const configJson = await readFile(configPath, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new CheckpointError(
      `cannot read ${configPath} (${error.code ?? error.message}): pass a directory written by saveWeights`,
      configPath,
    );
  });
  let raw: unknown;
  try {
    raw = JSON.parse(configJson);
  } catch (error) {
    throw new CheckpointError(
      `${configPath} is not JSON (${(error as Error).message}): fix or rewrite it`,
      configPath,
    );
  }
  const parsed = safeParseModelConfig(raw);
  if (!parsed.success) {
    throw new CheckpointError(`${configPath}: ${parsed.error.message}`, configPath);
  }
  const weightsPath = join(dir, WEIGHTS_FILE);
  const bytes = await readFile(weightsPath).catch((error: NodeJS.ErrnoException) => {
    throw new CheckpointError(
      `cannot read ${weightsPath} (${error.code ?? error.message}): pass a directory written by saveWeights`,
      weightsPath,
    );
  });
  return { config: parsed.data, params: weightsFromSafetensors(bytes, parsed.data, weightsPath) };
}

/**
 * The flat parameter buffer of `config` from safetensors bytes, after checking that the file holds
 * exactly the config's tensors with the right shapes and dtype; `path` names the file in errors.
 */
export function weightsFromSafetensors(bytes: Uint8Array, config: ModelConfig, path: string): Float32Array {
  const { tensors } = decodeSafetensors(bytes, path);
  const params = new Float32Array(parameterCount(config));
  const specs = tensorSpecs(config);
  const describe = (dtype: string, shape: readonly number[]): string => `${dtype} [${shape.join(", ")}]`;
  for (const spec of specs) {
    const tensor = tensors.get(spec.name);
    const expected = describe("F32", spec.shape);
    if (tensor === undefined) throw new TensorMismatchError(path, spec.name, expected, "no such tensor");
    const sameShape =
      tensor.shape.length === spec.shape.length && tensor.shape.every((d, i) => d === spec.shape[i]);
    if (tensor.dtype !== "F32" || !sameShape || tensor.data === null) {
      throw new TensorMismatchError(path, spec.name, expected, describe(tensor.dtype, tensor.shape));
    }
    params.set(tensor.data, spec.offset);
  }
  const known = new Set(specs.map((s) => s.name));
  for (const [name, tensor] of tensors) {
    if (!known.has(name)) {
      throw new TensorMismatchError(
        path,
        name,
        "no tensor of this name",
        describe(tensor.dtype, tensor.shape),
      );
    }
  }
  return params;
}

async function writeAtomically(path: string, data: Uint8Array | string): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, data);
  await rename(tmp, path);
}
