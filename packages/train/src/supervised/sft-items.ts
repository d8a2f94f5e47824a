/**
 * From conversations to what supervised fine-tuning trains and measures: each conversation a
 * training sequence (sft-example.ts), those longer than the model's context left out and counted,
 * and the held-out set for the eval loss (the sources' own, else some of the training ones).
 * Shared by `vf sft` (fine-tune.ts) and `vf train`'s [sft] stage.
 */
import { UserError } from "@vf-rl/core/errors";
import type { BatchItem, ChatMessageInput } from "@vf-rl/engine";
import { conversationItem } from "./sft-example.ts";
import type { SftConversations } from "./sft-sources.ts";

/** Options of `sftItems`. */
export interface SftItemsOptions {
  /** The model's context: longer sequences are left out. */
  maxSeqLen: number;
  /**
   * Conversations held out for the eval loss when no source has held-out ones, evenly spaced and
   * at most a tenth of the data (0: none).
   */
  evalSize: number;
  /** Receives one line per set of conversations left out. */
  log: (line: string) => void;
}

/** Training and held-out sequences; throws when no training conversation fits the context. */
export function sftItems(
  sources: Pick<SftConversations, "train" | "eval">,
  options: SftItemsOptions,
): { train: BatchItem[]; held: BatchItem[] } {
  const { maxSeqLen, log } = options;
  const fit = (conversations: ChatMessageInput[][], what: string): BatchItem[] => {
    const items = conversations.map((messages) => conversationItem(messages));
    const kept = items.filter((item) => item.tokens.length - 1 <= maxSeqLen);
    if (kept.length < items.length) {
      log(
        `left out ${items.length - kept.length} of ${items.length} ${what} conversations longer than the model's context of ${maxSeqLen} tokens`,
      );
    }
    return kept;
  };
  const all = fit(sources.train, "training");
  if (all.length === 0) {
    throw new UserError(
      `every training conversation is longer than the model's context of ${maxSeqLen} tokens: use shorter data or a model with a larger maxSeqLen`,
    );
  }
  const given = fit(sources.eval, "eval");
  return given.length > 0 ? { train: all, held: given } : holdOut(all, options.evalSize);
}

/** Evenly spaced items held out for the eval loss: `count`, at most a tenth of them. */
function holdOut(items: BatchItem[], count: number): { train: BatchItem[]; held: BatchItem[] } {
  if (count === 0 || items.length < 2) return { train: items, held: [] };
  const n = Math.min(count, Math.floor(items.length / 10));
  const every = n > 0 ? items.length / n : Infinity;
  const picked = new Set(Array.from({ length: n }, (_, i) => Math.floor(i * every)));
  return { train: items.filter((_, i) => !picked.has(i)), held: items.filter((_, i) => picked.has(i)) };
}
