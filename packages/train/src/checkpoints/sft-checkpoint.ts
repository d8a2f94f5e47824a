/**
 * Checkpoints of the [sft] stage, in the stage's own folder of the run, `<run>/sft/`:
 *
 *   metrics.jsonl, loss-curve.svg, final/   what the supervised loop writes (as `vf sft` does)
 *   checkpoints/step_N/trainer/             the trainer's whole state after N steps of the stage
 *   checkpoints/step_N/metrics.jsonl        the run's metrics.jsonl up to then (its `sft` rows)
 *   checkpoints/step_N/progress.json        the step, the loss curve so far, the time, the config
 *
 * The stage is finished once it has a checkpoint at its max_steps: a resumed run then goes straight
 * to RL, whose policy 0 is that checkpoint's weights. Each checkpoint is built in a temporary folder
 * and renamed into place (as the RL stage's are), and the two newest are kept.
 */
import { existsSync } from "node:fs";
import { copyFile, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Trainer } from "@vf-rl/engine";
import { z } from "zod";
import { trainerStateDir } from "./run-checkpoint.ts";

/** Checkpoints of the stage kept: the newest two (the one resumed from survives the next save). */
const KEEP = 2;

/** The paths of the [sft] stage inside a run folder. */
export class SftStageLayout {
  readonly dir: string;

  constructor(runDir: string) {
    this.dir = join(runDir, "sft");
  }

  get checkpointsDir(): string {
    return join(this.dir, "checkpoints");
  }

  /** The checkpoint taken after `step` steps of the stage. */
  checkpoint(step: number): string {
    return join(this.checkpointsDir, `step_${step}`);
  }
}

const LossPoint = z.object({ step: z.number().int().nonnegative(), loss: z.number() });

/** progress.json of a checkpoint of the stage. */
export const SftStageProgress = z.object({
  /** Steps of the stage done. */
  step: z.number().int().nonnegative(),
  /** The loss curve so far: the training loss of every step, the eval loss where measured. */
  train_loss: z.array(LossPoint),
  eval_loss: z.array(LossPoint),
  /** Time of the stage's steps, over every attempt. */
  elapsed_ms: z.number().nonnegative(),
  /** The resolved config of the run, to check a resume against. */
  config: z.record(z.string(), z.unknown()),
  saved_at: z.string(),
});
export type SftStageProgress = z.infer<typeof SftStageProgress>;

/** A checkpoint of the stage found on disk. */
export interface FoundSftCheckpoint {
  dir: string;
  progress: SftStageProgress;
}

/** Options of `saveSftCheckpoint`. */
export interface SaveSftCheckpointOptions {
  layout: SftStageLayout;
  trainer: Trainer;
  /** The run's metrics.jsonl, complete up to the step. */
  metricsFile: string;
  progress: SftStageProgress;
}

/** Writes the checkpoint of `progress.step` (atomically) and prunes older ones; returns its folder. */
export async function saveSftCheckpoint(options: SaveSftCheckpointOptions): Promise<string> {
  const { layout, progress } = options;
  const final = layout.checkpoint(progress.step);
  const tmp = join(layout.checkpointsDir, `.step_${progress.step}.tmp-${process.pid}`);
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  await options.trainer.saveState(trainerStateDir(tmp));
  if (existsSync(options.metricsFile)) await copyFile(options.metricsFile, join(tmp, "metrics.jsonl"));
  await writeFile(join(tmp, "progress.json"), `${JSON.stringify(progress, null, 2)}\n`);
  await rm(final, { recursive: true, force: true });
  await rename(tmp, final);
  const names = await readdir(layout.checkpointsDir);
  for (const step of finishedSteps(names).slice(0, -KEEP)) {
    await rm(layout.checkpoint(step), { recursive: true, force: true });
  }
  for (const name of names.filter((n) => n.startsWith(".step_") && !n.endsWith(`-${process.pid}`))) {
    await rm(join(layout.checkpointsDir, name), { recursive: true, force: true }); // left by killed runs
  }
  return final;
}

/** The newest whole checkpoint of the stage, if any. */
export async function latestSftCheckpoint(layout: SftStageLayout): Promise<FoundSftCheckpoint | undefined> {
  const names = await readdir(layout.checkpointsDir).catch(() => [] as string[]);
  for (const step of finishedSteps(names).reverse()) {
    const dir = layout.checkpoint(step);
    const text = await readFile(join(dir, "progress.json"), "utf8").catch(() => null);
    const parsed = text === null ? null : SftStageProgress.safeParse(parseJson(text));
    if (parsed?.success) return { dir, progress: parsed.data };
  }
  return undefined;
}

/** Steps of the finished checkpoints among folder names, in increasing order. */
function finishedSteps(names: readonly string[]): number[] {
  return names
    .map((name) => /^step_(\d+)$/.exec(name)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // fails the schema, so the next older checkpoint is tried
  }
}
