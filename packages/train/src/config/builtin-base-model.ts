/**
 * The built-in base model the engine ships (BASE_MODEL_DIR: config.json and model.safetensors), the
 * default `model` of a training config. Undefined while a build has none.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { BASE_MODEL_DIR, CONFIG_FILE } from "@vf-rl/engine";

/** The base model's checkpoint folder, when this build ships one. */
export function builtinBaseModel(): string | undefined {
  return existsSync(join(BASE_MODEL_DIR, CONFIG_FILE)) ? BASE_MODEL_DIR : undefined;
}
