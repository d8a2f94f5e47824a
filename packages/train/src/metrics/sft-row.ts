/**
 * The metrics.jsonl row of a step of the [sft] stage (kind "sft"), beside the RL stage's `train`
 * and `eval` rows: readers that know only those two skip it by its kind. Its step counts the
 * stage's own steps; the RL stage's steps count from 0 again after it.
 */
import { z } from "zod";

/** One optimizer step of the supervised stage. */
export const SftRow = z.object({
  kind: z.literal("sft"),
  /** Steps of the stage done, this one included (1-based). */
  step: z.number().int(),
  /** Epoch seconds when the step ended. */
  time: z.number(),
  /** Mean cross-entropy over the step's trained (assistant) tokens. */
  loss: z.number(),
  /** Mean cross-entropy over the held-out conversations, when measured after this step. */
  eval_loss: z.number().optional(),
  learning_rate: z.number(),
  grad_norm: z.number(),
  /** Tokens (prompt and answer) of the step's conversations. */
  tokens: z.number().int(),
  /** Time of the stage's steps so far, over every attempt. */
  elapsed_ms: z.number(),
});
export type SftRow = z.infer<typeof SftRow>;
