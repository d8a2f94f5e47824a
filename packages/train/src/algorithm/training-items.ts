/**
 * From a rollout's per-turn tokens to training sequences (the trainer protocol's `BatchItem`).
 *
 * Each model turn saw a prompt (`prompt_ids`, the whole conversation so far as the server rendered
 * it) and sampled a completion. When every turn's prompt starts with the previous turn's prompt and
 * completion, as with a prefix-monotonic chat template, the rollout is one sequence: the tokens
 * between one completion and the next prompt (tool results, the user's reply, the chat template's
 * markers) are context, masked 0. When a turn breaks the prefix (a template that drops earlier
 * reasoning, a truncated history), the sequence is cut there and the turn starts its own.
 * Only sampled tokens are trained (mask 1); they carry the sampler's logprob and the rollout's
 * advantage, every other position 0.
 */
import type { TrajectoryStep } from "@vf-rl/core";
import type { BatchItem } from "@vf-rl/engine";

/** Why a rollout gave no training items. */
export type NoItemsReason = "no_tokens" | "no_logprobs" | "empty";

/** The items of one rollout, or why it has none. */
export type RolloutItems = { ok: true; items_D: BatchItem[] } | { ok: false; reason: NoItemsReason };

/** Builds the training sequences of one rollout whose advantage is `advantage`. */
export function rolloutItems(trajectory: readonly TrajectoryStep[], advantage: number): RolloutItems {
  const items_D: BatchItem[] = [];
  let current: Required<BatchItem> | null = null;
  for (const step of trajectory) {
    const tokens = step.tokens;
    if (tokens === null) return { ok: false, reason: "no_tokens" };
    const { prompt_ids: prompt_T, completion_ids: completion_T, completion_logprobs: logprobs_T } = tokens;
    if (completion_T.length === 0) continue;
    if (logprobs_T.length !== completion_T.length) return { ok: false, reason: "no_logprobs" };
    if (current === null || !startsWith(prompt_T, current.tokens)) {
      if (current !== null) items_D.push(current);
      current = { tokens: [], mask: [], samplerLogprobs: [], advantages: [] };
    }
    // the context this turn adds: all of its prompt for a new sequence, else what follows the history
    for (let t = current.tokens.length; t < prompt_T.length; t++) {
      current.tokens.push(prompt_T[t]!);
      current.mask.push(0);
      current.samplerLogprobs.push(0);
      current.advantages.push(0);
    }
    for (let t = 0; t < completion_T.length; t++) {
      current.tokens.push(completion_T[t]!);
      current.mask.push(1);
      current.samplerLogprobs.push(logprobs_T[t]!);
      current.advantages.push(advantage);
    }
  }
  if (current !== null) items_D.push(current);
  if (items_D.length === 0) return { ok: false, reason: "empty" };
  // a sequence must open with context: the first token is never predicted
  for (const item of items_D) {
    if (item.mask[0] === 1) {
      item.mask[0] = 0;
      item.samplerLogprobs![0] = 0;
      item.advantages![0] = 0;
    }
  }
  return { ok: true, items_D };
}

function startsWith(tokens: readonly number[], prefix: readonly number[]): boolean {
  if (prefix.length > tokens.length) return false;
  for (let i = 0; i < prefix.length; i++) if (tokens[i] !== prefix[i]) return false;
  return true;
}
