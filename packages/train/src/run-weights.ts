/**
 * The model weights any folder `vf train` or `vf sft` printed stands for, so each can be evaluated
 * or served as it is (`vf eval ENV -m FOLDER`):
 *
 *   weights folder            config.json and model.safetensors: itself
 *   checkpoints/step_N/       a vf train checkpoint: the weights after N steps, its trainer/ folder
 *   a vf train run folder     its last weights: the newest weights/step_N, else the newest checkpoint
 *   a vf sft output folder    its last weights: final/, else the newest step-N/
 *
 * (run-layout.ts and checkpoints/run-checkpoint.ts say where vf train puts them; supervised/sft-loop.ts
 * where vf sft does.) Only folder and file names are read, not the weights.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { CONFIG_FILE, WEIGHTS_FILE } from "@vf-rl/engine";
import { trainerStateDir } from "./checkpoints/run-checkpoint.ts";
import { RunLayout } from "./run-layout.ts";

/** The weights a folder stands for. */
export interface RunWeights {
  /** The weights folder (config.json and model.safetensors). */
  dir: string;
  /** The folder that names them, step included: a checkpoint's own folder, else `dir`. */
  name: string;
}

/**
 * The weights that `dir` stands for, or undefined when it is none of the folders above.
 *
 * @example runWeights("outputs/train/reverse-text")?.dir // "outputs/train/reverse-text/weights/step_40"
 * @example runWeights("outputs/train/reverse-text/checkpoints/step_40")?.dir // ".../checkpoints/step_40/trainer"
 */
export function runWeights(dir: string): RunWeights | undefined {
  const run = new RunLayout(dir);
  return (
    weightsFolder(dir) ??
    checkpointWeights(dir) ??
    newestStep(run.weightsDir, "_", weightsFolder) ??
    newestStep(run.checkpointsDir, "_", checkpointWeights) ??
    weightsFolder(join(dir, "final")) ??
    newestStep(dir, "-", weightsFolder)
  );
}

/** Whether `dir` holds a model's weights as the engine saves them. */
function isWeightsFolder(dir: string): boolean {
  return existsSync(join(dir, CONFIG_FILE)) && existsSync(join(dir, WEIGHTS_FILE));
}

function weightsFolder(dir: string): RunWeights | undefined {
  return isWeightsFolder(dir) ? { dir, name: dir } : undefined;
}

/** The weights of a vf train checkpoint folder (its progress.json marks it whole), if `dir` is one. */
function checkpointWeights(dir: string): RunWeights | undefined {
  const trainer = trainerStateDir(dir);
  return existsSync(join(dir, "progress.json")) && isWeightsFolder(trainer)
    ? { dir: trainer, name: dir }
    : undefined;
}

/** The first `step<sep>N` folder of `parent`, newest first, for which `weightsOf` finds weights. */
function newestStep(
  parent: string,
  sep: "_" | "-",
  weightsOf: (dir: string) => RunWeights | undefined,
): RunWeights | undefined {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined; // not this kind of run
    throw error;
  }
  const pattern = new RegExp(`^step${sep}(\\d+)$`);
  const steps = names
    .map((name) => ({ name, step: pattern.exec(name)?.[1] }))
    .filter((entry): entry is { name: string; step: string } => entry.step !== undefined)
    .sort((a, b) => Number(b.step) - Number(a.step));
  for (const { name } of steps) {
    const weights = weightsOf(join(parent, name));
    if (weights !== undefined) return weights;
  }
  return undefined;
}
