/**
 * `--resume`: finds the newest checkpoint of a run folder (with `--resume-step N`, the one of step
 * N), checks that the config still describes the same run, and puts everything back as it was after
 * that step: the trainer's state, the policies of the batches already due, metrics.jsonl as it was
 * at that step, the data order; what the run wrote after it is discarded (discard-later.ts).
 * Without `--resume`, a folder that already holds a run is refused rather than overwritten.
 */
import { existsSync } from "node:fs";
import { copyFile, mkdir, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { UserError } from "@vf-rl/core";
import type { Trainer } from "@vf-rl/engine";
import type { ResolvedTrainConfig } from "../config/load-train-config.ts";
import { readMetrics } from "../metrics/metrics-file.ts";
import type { CarriedGroup } from "../rollouts/carry-buffer.ts";
import type { PromptSourceState } from "../rollouts/prompt-source.ts";
import type { RunLayout } from "../run-layout.ts";
import { discardAfter } from "./discard-later.ts";
import { describeLineage, type RunLineage } from "./lineage.ts";
import {
  checkpointSteps,
  type FoundCheckpoint,
  latestCheckpoint,
  linkOrCopy,
  METRICS_FILE,
  policyDir,
  readCheckpoint,
  trainerStateDir,
} from "./run-checkpoint.ts";
import { sameJson, savedWithDefaults } from "./saved-config.ts";

/** Keys that may change between attempts of one run; every other key must stay as it was. */
const CHANGEABLE = new Set(["max_steps", "eval", "checkpoints", "trainer", "inference", "output_dir"]);

/**
 * The checkpoint to resume from (undefined: start at step 0): the newest, or the one of `step`.
 * Throws when the folder holds a run and `resume` is false, when `resume` finds no run or no
 * checkpoint at `step`, or when the config changed a key that decides what is trained.
 */
export async function resumeProblems(
  layout: RunLayout,
  config: ResolvedTrainConfig,
  resume: boolean,
  step?: number,
): Promise<FoundCheckpoint | undefined> {
  const newest = await latestCheckpoint(layout);
  const found = step === undefined || newest === undefined ? newest : await checkpointAt(layout, step);
  const started = found !== undefined || existsSync(layout.metricsFile);
  if (!resume) {
    if (started) {
      throw new UserError(
        `${layout.dir} already holds a training run${found ? ` (checkpoint at step ${found.progress.step})` : ""}: pass --resume to continue it, or set output_dir (--output_dir DIR) to a new folder`,
      );
    }
    return undefined;
  }
  if (found === undefined) {
    if (started) {
      throw new UserError(
        `${layout.dir} holds a run that never wrote a checkpoint, so --resume has nothing to continue from: delete the folder or set output_dir to a new one, and start without --resume`,
      );
    }
    // A mistyped output_dir must not quietly become a new run from step 0.
    throw new UserError(
      `${layout.dir} holds no training run, so --resume has nothing to continue: check output_dir, or start without --resume for a new run`,
    );
  }
  const saved = savedWithDefaults(found.progress.config, CHANGEABLE);
  const current = JSON.parse(JSON.stringify(config)) as Record<string, unknown>;
  const changed = [...new Set([...Object.keys(saved), ...Object.keys(current)])]
    .filter((key) => !CHANGEABLE.has(key))
    .filter((key) => !sameJson(saved[key], current[key]));
  if (changed.length > 0) {
    const what = changed.map(
      (key) => `${key} (${JSON.stringify(saved[key])} → ${JSON.stringify(current[key])})`,
    );
    throw new UserError(
      `--resume: the config changed ${what.join(", ")} since ${found.dir} was written, so the run would not continue exactly: put them back, or start a new run in another output_dir (only ${[...CHANGEABLE].join(", ")} may change)`,
    );
  }
  if (found.progress.step >= config.max_steps) {
    throw new UserError(
      `--resume: ${layout.dir} is already at step ${found.progress.step} of max_steps ${config.max_steps}: raise max_steps (--max_steps N) to train further`,
    );
  }
  return found;
}

/** The checkpoint of `step`; throws, listing the steps that have one, when there is none. */
async function checkpointAt(layout: RunLayout, step: number): Promise<FoundCheckpoint> {
  const found = await readCheckpoint(layout.checkpoint(step));
  if (found !== undefined) return found;
  const steps = await checkpointSteps(layout);
  throw new UserError(
    `--resume-step ${step}: ${layout.dir} has no checkpoint at step ${step}; steps with one: ${steps.join(", ")}`,
  );
}

/** What a resumed (or forked) run continues from. */
export interface RestoredRun {
  step: number;
  /** The prompt source at the start of batch `step`; undefined: drawn afresh from the seed. */
  source: PromptSourceState | undefined;
  /** The carry buffer at the start of batch `step`. */
  carry: CarriedGroup[];
  /** Policy versions already evaluated. */
  evaluated: Set<number>;
  elapsedMs: number;
  /** The runs this one descends from (lineage.ts), saved again in its checkpoints. */
  lineage: RunLineage;
  /** Lines for the user: what was discarded, what starts afresh, the lineage. */
  notes: string[];
}

/** Puts the run folder and the trainer back to the state of `found`, discarding what came after it. */
export async function restoreRun(
  found: FoundCheckpoint,
  layout: RunLayout,
  trainer: Trainer,
): Promise<RestoredRun> {
  const { progress } = found;
  const notes = await discardAfter(layout, progress.step);
  if (progress.lineage.length > 0) notes.push(`lineage: ${describeLineage(progress.lineage)}`);
  await trainer.loadState(trainerStateDir(found.dir));
  for (const version of progress.policies) {
    const to = layout.weights(version);
    await rm(to, { recursive: true, force: true });
    await mkdir(to, { recursive: true });
    const from = policyDir(found.dir, version);
    for (const file of await readdir(from)) await linkOrCopy(join(from, file), join(to, file));
  }
  await trainer.saveWeights(layout.weights(progress.step));
  const savedMetrics = join(found.dir, METRICS_FILE);
  if (existsSync(savedMetrics)) await copyFile(savedMetrics, layout.metricsFile);
  else await rm(layout.metricsFile, { force: true });
  const { rows } = existsSync(layout.metricsFile) ? await readMetrics(layout.metricsFile) : { rows: [] };
  const evaluated = new Set(rows.filter((r) => r.kind === "eval").map((r) => r.step));
  return {
    step: progress.step,
    source: progress.source,
    carry: progress.carry,
    evaluated,
    elapsedMs: progress.elapsed_ms,
    lineage: progress.lineage,
    notes,
  };
}
