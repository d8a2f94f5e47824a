/**
 * The `[sft]` table of a training config: a supervised stage that `vf train` runs before RL, in the
 * same run folder and through the same trainer, whose final weights are the RL stage's policy 0 (as
 * prime-rl's examples warm up with `sft` and then start `rl` from its checkpoint). Absent: RL only.
 * Keys as `vf sft`'s flags (snake_case), with max_steps as the stage's length:
 *
 *   [sft]
 *   max_steps = 100        # vf sft --steps
 *   batch_size = 32        # conversations per step
 *   lr = 1e-3              # peak learning rate
 *   data = "outputs/evals/reverse-text--gpt-4.1/abc123"   # absent: the [[env]] rows' references
 *   min_reward = 1         # of saved rollouts
 */
import { z } from "zod";

/** The supervised stage before RL. */
export const SftStageConfig = z
  .object({
    /** Optimizer steps of the stage (default 100; vf sft --steps). */
    max_steps: z.number().int().positive().default(100),
    /** Conversations per step (default 32; vf sft --batch-size). */
    batch_size: z.number().int().positive().default(32),
    /** Peak learning rate (default 1e-3; vf sft --lr). */
    lr: z.number().positive().default(1e-3),
    /** Steps of linear warmup (default: a tenth of max_steps, at most 100; vf sft --warmup). */
    warmup: z.number().int().nonnegative().optional(),
    /** After warmup: "cosine" decay to a tenth of lr (default), or "constant" (vf sft --schedule). */
    schedule: z.enum(["cosine", "constant"]).default("cosine"),
    /** AdamW's decoupled weight decay (default 0.01; vf sft --weight-decay). */
    weight_decay: z.number().nonnegative().default(0.01),
    /** Clip the gradient norm to this (default 1; 0: off; vf sft --clip). */
    clip: z.number().nonnegative().default(1),
    /**
     * What to train on, one path or a list (vf sft --data): conversation JSONL (`{"messages": [...]}`
     * a line), prompt + completion JSONL, or saved rollouts (a `vf eval -s` run folder or its
     * results.jsonl). Absent (default): the training rows of the run's [[env]] environments (as the
     * RL stage reads them: num_examples, seed) with each one's reference completion.
     */
    data: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    /** Keep saved rollouts with at least this reward (default: all; vf sft --min-reward). */
    min_reward: z.number().optional(),
    /** Keep only the best saved rollout of each example (default false; vf sft --best-of-group). */
    best_of_group: z.boolean().default(false),
    /** Measure the eval loss every this many steps, and at the start and end (default max_steps / 10). */
    eval_every: z.number().int().positive().optional(),
    /**
     * Checkpoint the stage every this many steps, for --resume (default 10; 0: only when it ends or
     * is stopped; vf sft --save-every).
     */
    save_every: z.number().int().nonnegative().default(10),
  })
  .strict()
  .superRefine((sft, context) => {
    // the filters of saved rollouts mean nothing for the environments' references
    const filters = [
      ...(sft.min_reward !== undefined ? ["min_reward"] : []),
      ...(sft.best_of_group ? ["best_of_group"] : []),
    ];
    for (const key of sft.data === undefined ? filters : []) {
      context.addIssue({
        code: "custom",
        path: [key],
        message:
          "filters saved rollouts, and [sft] has no data: set data to a vf eval -s run folder (or its results.jsonl)",
      });
    }
  });
export type SftStageConfig = z.infer<typeof SftStageConfig>;

/** The data paths of an [sft] table (none: the [[env]] environments' references). */
export function sftDataPaths(sft: SftStageConfig): string[] {
  if (sft.data === undefined) return [];
  return typeof sft.data === "string" ? [sft.data] : sft.data;
}
