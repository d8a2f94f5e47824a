/**
 * Token text for the logprob heat map. Every model the engine serves (vf's built-in model, and the
 * checkpoint folders vf train and vf sft write, which `vf eval -m` records by their path) shares
 * the engine's byte-level tokenizer, so the page decodes their ids; for any other model it shows
 * ids, since the viewer has no tokenizer of theirs. A byte that is only part of a character shows
 * as its hex value (<e2>).
 */
import type { TokenText } from "@vf-rl/hub/rollout-html";

export async function tokenTextFor(model: string): Promise<TokenText | undefined> {
  if (!(await servedByEngine(model))) return undefined;
  const { tokenizer } = await import("@vf-rl/engine");
  return (id) => {
    const text = tokenizer.decode([id]);
    return text === "\uFFFD" && id < 256 ? `<${id.toString(16).padStart(2, "0")}>` : text;
  };
}

/**
 * Whether `model` is the built-in model's name or a folder of engine weights here (a run, a
 * checkpoint, or one an installed package ships). A folder since moved or deleted shows ids.
 */
async function servedByEngine(model: string): Promise<boolean> {
  const { BUILTIN_MODEL_NAME } = await import("@vf-rl/engine/base-model");
  if (model === BUILTIN_MODEL_NAME) return true;
  const { findPackagePath } = await import("@vf-rl/core/loading");
  const folder = findPackagePath(model);
  if (folder === undefined) return false;
  const { runWeights } = await import("@vf-rl/train/run-weights");
  return runWeights(folder) !== undefined;
}
