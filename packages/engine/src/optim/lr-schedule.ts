/**
 * Learning-rate schedules as pure functions of the step (0-based): linear warmup to the peak, then
 * constant or a cosine decay to a floor. `LrSchedule` is the same choice as data, for configs.
 */
import { z } from "zod";

/** Linear warmup over `warmupSteps` (step 0 gets peak/warmupSteps), then `peakLr`. */
export function warmupConstant(step: number, o: { peakLr: number; warmupSteps: number }): number {
  if (step < o.warmupSteps) return (o.peakLr * (step + 1)) / o.warmupSteps;
  return o.peakLr;
}

/** Linear warmup, then a half cosine from `peakLr` at the end of warmup to `minLr` at `totalSteps`. */
export function warmupCosine(
  step: number,
  o: { peakLr: number; warmupSteps: number; totalSteps: number; minLr: number },
): number {
  if (step < o.warmupSteps) return (o.peakLr * (step + 1)) / o.warmupSteps;
  const span = Math.max(1, o.totalSteps - o.warmupSteps);
  const progress = Math.min(1, (step - o.warmupSteps) / span);
  return o.minLr + (o.peakLr - o.minLr) * 0.5 * (1 + Math.cos(Math.PI * progress));
}

/** A schedule as data (e.g. from a TOML config): constant after warmup, or cosine to a floor. */
export const LrSchedule = z.discriminatedUnion("type", [
  z
    .object({
      type: z.literal("constant"),
      peakLr: z.number().nonnegative(),
      warmupSteps: z.number().int().nonnegative().default(0),
    })
    .strict(),
  z
    .object({
      type: z.literal("cosine"),
      peakLr: z.number().nonnegative(),
      warmupSteps: z.number().int().nonnegative().default(0),
      totalSteps: z.number().int().positive(),
      minLr: z.number().nonnegative().default(0),
    })
    .strict(),
]);
export type LrSchedule = z.infer<typeof LrSchedule>;

/** The learning rate of `step` under a schedule. */
export function learningRateAt(schedule: LrSchedule, step: number): number {
  switch (schedule.type) {
    case "constant":
      return warmupConstant(step, schedule);
    case "cosine":
      return warmupCosine(step, schedule);
  }
}
