/**
 * `--fork OTHER_RUN[/checkpoints/step_N]`: a new run, in its own output_dir, that starts from
 * another run's checkpoint (its newest when no step is named): the trainer's state (weights, AdamW
 * moments), its step, and the policies of the batches already due, so with an unchanged config the
 * fork takes exactly the steps its parent took. The config may change (that is the point: another
 * environment, another learning rate); what cannot carry over to a changed config starts afresh,
 * and a line says so:
 *
 *   - the data order (prompt source, its curricula and the groups carried between batches) carries
 *     over only while [[env]], seed and rollouts_per_example are unchanged, as it is a position in
 *     those rows and groups;
 *   - metrics.jsonl, evaluations and the training time are the fork's own, from its first step
 *     (the parent's stay in the parent's folder, which the lineage names);
 *   - a policy the parent's checkpoint does not hold (the fork raised max_async_level) is replaced
 *     by the checkpoint's own weights.
 *
 * The fork's lineage (lineage.ts) goes into each of its checkpoints.
 */
import { existsSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { UserError } from "@vf-rl/core";
import { CONFIG_FILE, type Trainer, WEIGHTS_FILE } from "@vf-rl/engine";
import type { ResolvedTrainConfig } from "../config/load-train-config.ts";
import type { OffPolicySchedule } from "../loop/off-policy.ts";
import { RunLayout } from "../run-layout.ts";
import { describeLineage, type RunLineage } from "./lineage.ts";
import { type RestoredRun, resumeProblems } from "./resume-run.ts";
import {
  checkpointSteps,
  type FoundCheckpoint,
  latestCheckpoint,
  linkOrCopy,
  policyDir,
  readCheckpoint,
  trainerStateDir,
} from "./run-checkpoint.ts";

/** Keys whose change makes a fork draw its data afresh (see the file comment). */
const DATA_KEYS = ["env", "seed", "rollouts_per_example"] as const;

/**
 * The checkpoint a fork into `layout` starts from. Throws when `path` holds no run or no whole
 * checkpoint, is the fork's own folder, or is not below max_steps; or when `layout` holds a run.
 */
export async function forkProblems(
  layout: RunLayout,
  config: ResolvedTrainConfig,
  path: string,
): Promise<FoundCheckpoint> {
  const found = await forkCheckpoint(path);
  if (parentRunDir(found.dir) === layout.dir) {
    throw new UserError(
      `--fork ${path} is this run's own folder (output_dir): continue it with --resume (--resume-step N for an older step), or set output_dir to a new folder for the fork`,
    );
  }
  await resumeProblems(layout, config, false); // the fork's folder must hold no run
  const { step } = found.progress;
  if (step >= config.max_steps) {
    throw new UserError(
      `--fork: ${found.dir} is at step ${step} and max_steps is ${config.max_steps}: a fork goes on from its parent's step, so set max_steps above ${step} (--max_steps ${step + 10})`,
    );
  }
  return found;
}

/** The checkpoint `path` names: a `checkpoints/step_N` folder, or a run folder's newest. */
async function forkCheckpoint(path: string): Promise<FoundCheckpoint> {
  const dir = resolve(path);
  const step = /^step_(\d+)$/.exec(basename(dir))?.[1];
  if (step !== undefined) {
    const found = await readCheckpoint(dir);
    if (found !== undefined) return found;
    const runDir = parentRunDir(dir);
    const steps = await checkpointSteps(new RunLayout(runDir));
    if (steps.length > 0) {
      throw new UserError(
        `--fork ${path}: ${runDir} has no checkpoint at step ${step}; steps with one: ${steps.join(", ")}`,
      );
    }
  } else {
    const found = await latestCheckpoint(new RunLayout(dir));
    if (found !== undefined) return found;
  }
  const what = existsSync(dir) ? "holds no training run with a checkpoint" : "does not exist";
  throw new UserError(
    `--fork ${path} ${what}: give the folder of a vf train run (its output_dir) or one of its checkpoints/step_N`,
  );
}

/** The run folder a checkpoint folder belongs to (`RUN/checkpoints/step_N` → `RUN`). */
function parentRunDir(checkpointDir: string): string {
  const parent = dirname(checkpointDir);
  return basename(parent) === "checkpoints" ? dirname(parent) : parent;
}

/** Starts the run in `layout` from the parent's checkpoint `found` (see the file comment). */
export async function restoreFork(
  found: FoundCheckpoint,
  layout: RunLayout,
  trainer: Trainer,
  config: ResolvedTrainConfig,
  schedule: OffPolicySchedule,
): Promise<RestoredRun> {
  const { progress } = found;
  const notes: string[] = [];
  await trainer.loadState(trainerStateDir(found.dir));
  for (const version of schedule.checkpointPolicies(progress.step)) {
    const held = progress.policies.includes(version);
    if (!held) {
      notes.push(
        `the parent's checkpoint holds no policy ${version}, which max_async_level ${config.max_async_level} samples with: its step-${progress.step} weights stand in for it`,
      );
    }
    const from = held ? policyDir(found.dir, version) : trainerStateDir(found.dir);
    const to = layout.weights(version);
    await rm(to, { recursive: true, force: true });
    await mkdir(to, { recursive: true });
    for (const file of [CONFIG_FILE, WEIGHTS_FILE]) await linkOrCopy(join(from, file), join(to, file));
  }
  await trainer.saveWeights(layout.weights(progress.step));

  const current = JSON.parse(JSON.stringify(config)) as Record<string, unknown>;
  const changed = DATA_KEYS.filter(
    (key) => JSON.stringify(progress.config[key]) !== JSON.stringify(current[key]),
  );
  if (changed.length > 0) {
    notes.push(
      `the fork changed ${changed.join(", ")}: its data order (prompt order, curricula, carried groups) starts afresh from seed ${config.seed}`,
    );
  }
  const lineage: RunLineage = [
    { run_dir: parentRunDir(found.dir), step: progress.step, checkpoint: found.dir },
    ...progress.lineage,
  ];
  notes.push(`lineage: ${describeLineage(lineage)}`);
  const same = changed.length === 0;
  return {
    step: progress.step,
    source: same ? progress.source : undefined,
    carry: same ? progress.carry : [],
    evaluated: new Set(),
    elapsedMs: 0,
    lineage,
    notes,
  };
}

/** The lineage of a run folder (from its newest checkpoint): empty for a run never forked. */
export async function readRunLineage(runDir: string): Promise<RunLineage> {
  return (await latestCheckpoint(new RunLayout(resolve(runDir))))?.progress.lineage ?? [];
}
