/**
 * Checkpoints of a run, for an exact `--resume`. `checkpoints/step_N/` holds:
 *
 *   trainer/        the trainer's whole state after N steps (weights, AdamW moments, step count)
 *   policies/step_K the weights the batches already due are sampled with (which ones: the
 *                   run's off-policy schedule, off-policy.ts), so a resumed run samples them
 *                   again from those very weights
 *   metrics.jsonl   the run's metrics up to that step
 *   progress.json   the step, the data order (prompt source state, its generator included), the
 *                   groups waiting in the carry buffer,
 *                   time spent so far, the config, the lineage of a forked run
 *
 * A checkpoint is built in a temporary folder and renamed into place, so a run killed at any
 * moment leaves either the whole checkpoint or none of it: a saved step is never lost. Weight
 * files are hard links when the file system allows (copies otherwise).
 */
import { existsSync } from "node:fs";
import { copyFile, link, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { CONFIG_FILE, type Trainer, WEIGHTS_FILE } from "@vf-rl/engine";
import { z } from "zod";
import { CarriedGroup } from "../rollouts/carry-buffer.ts";
import { PromptSourceState } from "../rollouts/prompt-source.ts";
import type { RunLayout } from "../run-layout.ts";
import { RunLineage } from "./lineage.ts";
import { keptSteps, type Retention } from "./retention.ts";

/** progress.json of a checkpoint. */
export const RunProgress = z.object({
  /** Optimizer steps done. */
  step: z.number().int().nonnegative(),
  /** The prompt source at the start of batch `step`. */
  source: PromptSourceState,
  /** The carry buffer at the start of batch `step`: groups kept by earlier batches' rounds. */
  carry: z.array(CarriedGroup).default([]),
  /** Policy versions saved under policies/. */
  policies: z.array(z.number().int().nonnegative()),
  /** Training time so far, over every attempt. */
  elapsed_ms: z.number().nonnegative(),
  /** The resolved config of the run, to check a resume against. */
  config: z.record(z.string(), z.unknown()),
  saved_at: z.string(),
  /** The runs this one was forked from, its parent first (empty: not a fork). */
  lineage: RunLineage.default([]),
});
export type RunProgress = z.infer<typeof RunProgress>;

/** A checkpoint found on disk. */
export interface FoundCheckpoint {
  dir: string;
  progress: RunProgress;
}

/** The copy of metrics.jsonl in a checkpoint folder. */
export const METRICS_FILE = "metrics.jsonl";

/** The trainer-state folder of a checkpoint. */
export function trainerStateDir(checkpointDir: string): string {
  return join(checkpointDir, "trainer");
}

/** The saved policy of `version` inside a checkpoint. */
export function policyDir(checkpointDir: string, version: number): string {
  return join(checkpointDir, "policies", `step_${version}`);
}

/** Options of `saveRunCheckpoint`. */
export interface SaveCheckpointOptions {
  layout: RunLayout;
  /** metrics.jsonl, complete up to the step (flush pending rows first). */
  metricsFile: string;
  trainer: Trainer;
  progress: RunProgress;
  /** Which checkpoints to keep once this one is written ([checkpoints] keep_last, keep_interval). */
  retention: Retention;
}

/** Writes the checkpoint of `progress.step` (atomically, see the file comment); returns its folder. */
export async function saveRunCheckpoint(options: SaveCheckpointOptions): Promise<string> {
  const { layout, trainer, progress } = options;
  const final = layout.checkpoint(progress.step);
  const tmp = join(layout.checkpointsDir, `.step_${progress.step}.tmp-${process.pid}`);
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  await trainer.saveState(trainerStateDir(tmp));
  for (const version of progress.policies) {
    const to = policyDir(tmp, version);
    await mkdir(to, { recursive: true });
    for (const file of [CONFIG_FILE, WEIGHTS_FILE])
      await linkOrCopy(join(layout.weights(version), file), join(to, file));
  }
  if (existsSync(options.metricsFile)) await copyFile(options.metricsFile, join(tmp, METRICS_FILE));
  await writeFile(join(tmp, "progress.json"), `${JSON.stringify(progress, null, 2)}\n`);
  await rm(final, { recursive: true, force: true });
  await rename(tmp, final);
  await pruneCheckpoints(layout, options.retention);
  return final;
}

/** The newest whole checkpoint of a run, if any. */
export async function latestCheckpoint(layout: RunLayout): Promise<FoundCheckpoint | undefined> {
  for (const step of (await checkpointSteps(layout)).reverse()) {
    const found = await readCheckpoint(layout.checkpoint(step));
    if (found) return found;
  }
  return undefined;
}

/** The checkpoint in `dir` (a `checkpoints/step_N` folder), or undefined when it holds none whole. */
export async function readCheckpoint(dir: string): Promise<FoundCheckpoint | undefined> {
  const text = await readFile(join(dir, "progress.json"), "utf8").catch(() => null);
  const parsed = text === null ? null : RunProgress.safeParse(parseJson(text));
  return parsed?.success ? { dir, progress: parsed.data } : undefined;
}

/** Steps of the finished checkpoints (not temporary folders), in increasing order. */
export async function checkpointSteps(layout: RunLayout): Promise<number[]> {
  const names = await readdir(layout.checkpointsDir).catch(() => [] as string[]);
  return names
    .map((name) => /^step_(\d+)$/.exec(name)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

/** Deletes the checkpoints retention does not keep (retention.ts), and temporary folders left by killed runs. */
async function pruneCheckpoints(layout: RunLayout, retention: Retention): Promise<void> {
  const steps = await checkpointSteps(layout);
  const kept = new Set(keptSteps(steps, retention));
  for (const step of steps.filter((s) => !kept.has(s))) {
    await rm(layout.checkpoint(step), { recursive: true, force: true });
  }
  const names = await readdir(layout.checkpointsDir).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.startsWith(".step_") && !n.endsWith(`-${process.pid}`))) {
    await rm(join(layout.checkpointsDir, name), { recursive: true, force: true });
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // fails the schema below, so the next older checkpoint is tried
  }
}

/** Puts `from` at `to` as well: a hard link where the file system allows, a copy otherwise. */
export async function linkOrCopy(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch {
    await copyFile(from, to); // another file system, or one without hard links
  }
}
