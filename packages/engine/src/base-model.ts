/**
 * The base model shipped with the engine (packages/engine/models/base): the built-in model of
 * `vf eval`, `vf serve` and `vf train` when no other is named. How it was trained, and how well it
 * does, is in packages/engine/models/README.md.
 */
import { fileURLToPath } from "node:url";

/** Directory of the shipped base model's checkpoint (config.json and model.safetensors). */
export const BASE_MODEL_DIR = fileURLToPath(new URL("../models/base", import.meta.url));

/** The name the built-in model is served under. */
export const BUILTIN_MODEL_NAME = "vf-builtin";
