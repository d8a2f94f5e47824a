/**
 * Token text for the logprob heat map: vf's built-in model (the engine's byte-level tokenizer)
 * decodes each id; for any other model the page shows ids, since the viewer has no tokenizer of
 * theirs. A byte that is only part of a character shows as its hex value (<e2>).
 */
import type { TokenText } from "@vf-rl/hub/rollout-html";

export async function tokenTextFor(model: string): Promise<TokenText | undefined> {
  const { BUILTIN_MODEL_NAME } = await import("@vf-rl/engine/base-model");
  if (model !== BUILTIN_MODEL_NAME) return undefined;
  const { tokenizer } = await import("@vf-rl/engine");
  return (id) => {
    const text = tokenizer.decode([id]);
    return text === "\uFFFD" && id < 256 ? `<${id.toString(16).padStart(2, "0")}>` : text;
  };
}
