/**
 * The `[[filters]]` tables of a training config: detectors of degenerate rollouts (prime-rl's
 * gibberish and repetition filters), each run on every rollout of a kept group. A filter only
 * counts what it flags unless `enforce = true`, when flagged rollouts are not trained on (their
 * reward still counts in their group's baseline). algorithm/rollout-filters.ts applies them.
 *
 *   [[filters]]
 *   type = "repetition"
 *   enforce = true
 *
 * The defaults are chosen for the engine's byte tokenizer (`tokenizer` in @vf-rl/engine): 263 ids,
 * 0..127 the ASCII bytes, 128..255 the other bytes of UTF-8, 256..262 special tokens
 * (<|bos|>, <|eot|>, ...). For a model with a BPE vocabulary, set them as prime-rl does
 * (token_id_threshold 100000, window 3000).
 */
import { z } from "zod";

/**
 * A rollout that samples a rare token at high entropy: a token whose id is above
 * `token_id_threshold` with a logprob below −log(vocabulary size) − `logprob_offset` (less likely
 * than a uniform guess, by a factor e^offset).
 */
export const GibberishFilterConfig = z
  .object({
    type: z.literal("gibberish"),
    /** Drop flagged rollouts from training (default false: only count them). */
    enforce: z.boolean().default(false),
    /**
     * Ids above this are candidates (default 127). BPE vocabularies put rare merges last; in the
     * byte tokenizer the ids above 127 are non-ASCII bytes and special tokens, which text in the
     * shipped environments (English, code, numbers) never needs; <|eot|> among them, flagged only
     * when sampled at such odds (a turn ended where the model did not mean it to).
     */
    token_id_threshold: z.number().int().nonnegative().default(127),
    /**
     * How far below the uniform logprob a candidate must be (default 2: p < e⁻² / 263 ≈ 5e-4 for
     * the byte tokenizer). Relative to the vocabulary size, so it carries over to other models.
     */
    logprob_offset: z.number().default(2),
  })
  .strict();
export type GibberishFilterConfig = z.infer<typeof GibberishFilterConfig>;

/**
 * A rollout stuck in a loop: `window` sampled tokens in a row, each with a probability above
 * `prob_threshold` (counted over the rollout's sampled tokens, across its turns).
 */
export const RepetitionFilterConfig = z
  .object({
    type: z.literal("repetition"),
    /** Drop flagged rollouts from training (default false: only count them). */
    enforce: z.boolean().default(false),
    /**
     * Near-certain tokens in a row that flag a rollout (default 128). A byte is about a quarter of
     * a BPE token, and in free text a byte model meets an open choice every word or so; 128 bytes
     * (some 25 words, a whole turn at the shipped configs' max_tokens) without one is a loop or a
     * long copy. prime-rl's 3000 would never be reached in the engine's context of 1024.
     */
    window: z.number().int().positive().default(128),
    /** Probability above which a sampled token counts as near-certain (default 0.99). */
    prob_threshold: z.number().gt(0).max(1).default(0.99),
  })
  .strict();
export type RepetitionFilterConfig = z.infer<typeof RepetitionFilterConfig>;

/** One `[[filters]]` table, by its `type`. */
export const FilterConfig = z.discriminatedUnion("type", [GibberishFilterConfig, RepetitionFilterConfig]);
export type FilterConfig = z.infer<typeof FilterConfig>;

/** The `[[filters]]` list: at most one table per type, so each count in the step report is one filter's. */
export const FiltersConfig = z.array(FilterConfig).superRefine((filters, context) => {
  const seen = new Set<string>();
  for (const [index, filter] of filters.entries()) {
    if (seen.has(filter.type)) {
      context.addIssue({
        code: "custom",
        path: [index, "type"],
        message: `is listed twice: keep one [[filters]] table with type = "${filter.type}"`,
      });
    }
    seen.add(filter.type);
  }
});
export type FiltersConfig = z.infer<typeof FiltersConfig>;
