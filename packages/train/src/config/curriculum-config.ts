/**
 * An environment's curriculum (`[env.curriculum]`), as prime-rl names it: one `sampler` that chooses
 * which of the environment's rows to draw next, and named `gates` that judge each finished group
 * before it may train.
 *
 *   [env.curriculum.sampler]
 *   type = "difficulty_pool"            # or "standard" (the default)
 *   [env.curriculum.sampler.pools.easy] # given pools replace the three defaults
 *   threshold = 1.0
 *   weight = 0                          # solved rows retire
 *   [env.curriculum.gates.flat]
 *   type = "advantage_range"            # reject a group whose advantages all lie in the range
 *   reject_min = -0.05
 *   reject_max = 0.05
 */
import { z } from "zod";

/** Every row once per epoch, in a seeded shuffle: the order a run has always drawn. */
export const StandardSamplerConfig = z.object({ type: z.literal("standard") }).strict();
export type StandardSamplerConfig = z.infer<typeof StandardSamplerConfig>;

/** One pool of a difficulty-pool sampler. */
export const DifficultyPool = z
  .object({
    /** The highest latest group mean reward a row may have to be in this pool (inclusive). */
    threshold: z.number(),
    /** How likely each row of this pool is drawn, relative to an unseen row's 1; 0 retires them. */
    weight: z.number().nonnegative(),
  })
  .strict();
export type DifficultyPool = z.infer<typeof DifficultyPool>;

/** prime-rl's defaults: hard rows wait and easy ones come back rarely, the rows in between most often. */
export const DEFAULT_POOLS: Record<string, DifficultyPool> = {
  hard: { threshold: 0.25, weight: 0.2 },
  normal: { threshold: 0.75, weight: 1.0 },
  easy: { threshold: 1.0, weight: 0.2 },
};

/**
 * Rows drawn with replacement, each weighted by the pool its latest group mean reward falls in (the
 * pool with the lowest threshold at or above it; above every threshold, the highest pool); a row
 * not yet scored weighs 1.
 */
export const DifficultyPoolSamplerConfig = z
  .object({
    type: z.literal("difficulty_pool"),
    /** Pools by name (default hard ≤ 0.25 weight 0.2, normal ≤ 0.75 weight 1, easy ≤ 1 weight 0.2). */
    pools: z.record(z.string(), DifficultyPool).default(DEFAULT_POOLS),
  })
  .strict()
  .superRefine(({ pools }, context) => {
    const issue = (message: string) => context.addIssue({ code: "custom", path: ["pools"], message });
    const list = Object.values(pools);
    if (list.length === 0)
      issue(
        "are empty: give at least one pool, e.g. [env.curriculum.sampler.pools.all] threshold = 1, weight = 1",
      );
    const thresholds = list.map((p) => p.threshold);
    if (new Set(thresholds).size !== thresholds.length) {
      issue(
        "share a threshold: each pool needs its own, as a row belongs to the lowest one at or above its reward",
      );
    } else if (list.length > 0 && list.every((p) => p.weight === 0)) {
      issue("all weigh 0, so every scored row would retire: give at least one pool a weight above 0");
    }
  });
export type DifficultyPoolSamplerConfig = z.infer<typeof DifficultyPoolSamplerConfig>;

/** How an environment's rows are chosen (`[env.curriculum.sampler]`). */
export const RowSamplerConfig = z.discriminatedUnion("type", [
  StandardSamplerConfig,
  DifficultyPoolSamplerConfig,
]);
export type RowSamplerConfig = z.infer<typeof RowSamplerConfig>;

/**
 * Rejects a group whose advantages all lie in [reject_min, reject_max] (default [0, 0]: a group
 * with nothing to teach); the batch draws another in its place.
 */
export const AdvantageRangeGateConfig = z
  .object({
    type: z.literal("advantage_range"),
    /** Lower edge of the rejected range (default 0). */
    reject_min: z.number().default(0),
    /** Upper edge of the rejected range (default 0). */
    reject_max: z.number().default(0),
  })
  .strict()
  .refine((gate) => gate.reject_min <= gate.reject_max, {
    path: ["reject_min"],
    message: "is above reject_max: the rejected range is [reject_min, reject_max]; swap them",
  });
export type AdvantageRangeGateConfig = z.infer<typeof AdvantageRangeGateConfig>;

/** A gate a finished group must pass to train (`[env.curriculum.gates.NAME]`). */
export const GateConfig = z.discriminatedUnion("type", [AdvantageRangeGateConfig]);
export type GateConfig = z.infer<typeof GateConfig>;

/** `[env.curriculum]`: the row sampler and the gates of one environment. */
export const CurriculumConfig = z
  .object({
    /** Which row to draw next (default standard: each row once per epoch, shuffled). */
    sampler: RowSamplerConfig.default({ type: "standard" }),
    /** Gates by name (default none); every gate judges every group, and a group trains only if all admit it. */
    gates: z.record(z.string(), GateConfig).default({}),
  })
  .strict();
export type CurriculumConfig = z.infer<typeof CurriculumConfig>;
