/**
 * Where a run starts: at step 0 in an empty folder, at a checkpoint of its own folder (`--resume`,
 * `--resume-step N`: resume-run.ts), or at another run's checkpoint as a new run (`--fork`:
 * fork-run.ts). The one place runTraining asks.
 */
import { UserError } from "@vf-rl/core";
import type { Trainer } from "@vf-rl/engine";
import type { ResolvedTrainConfig } from "../config/load-train-config.ts";
import type { OffPolicySchedule } from "../loop/off-policy.ts";
import type { RunLayout } from "../run-layout.ts";
import { forkProblems, restoreFork } from "./fork-run.ts";
import { type RestoredRun, restoreRun, resumeProblems } from "./resume-run.ts";
import { type FoundCheckpoint, trainerStateDir } from "./run-checkpoint.ts";

/** How a run was asked to start (runTraining's options). */
export interface RunStartOptions {
  /** Continue the run in output_dir from its newest checkpoint. */
  resume?: boolean;
  /** Continue it from the checkpoint of this step instead (implies resume). */
  resumeStep?: number;
  /** Start a new run from another run's checkpoint: its folder, or its checkpoints/step_N. */
  fork?: string;
}

/** Where the run starts. */
export type RunStart =
  | { type: "new" }
  | { type: "resume"; checkpoint: FoundCheckpoint }
  | { type: "fork"; checkpoint: FoundCheckpoint };

/** Decides where the run starts, checking the folders and the config first; throws one line when it cannot. */
export async function findRunStart(
  layout: RunLayout,
  config: ResolvedTrainConfig,
  options: RunStartOptions,
): Promise<RunStart> {
  const resume = (options.resume ?? false) || options.resumeStep !== undefined;
  if (options.fork !== undefined) {
    if (resume) {
      throw new UserError(
        "--fork starts a new run from another run's checkpoint and --resume continues this one: pass only one of them",
      );
    }
    return { type: "fork", checkpoint: await forkProblems(layout, config, options.fork) };
  }
  const found = await resumeProblems(layout, config, resume, options.resumeStep);
  return found === undefined ? { type: "new" } : { type: "resume", checkpoint: found };
}

/** The config to open the trainer with: a fork's weights are its parent's, whatever `model` says. */
export function trainerConfigOf(start: RunStart, config: ResolvedTrainConfig): ResolvedTrainConfig {
  return start.type === "fork" ? { ...config, model: trainerStateDir(start.checkpoint.dir) } : config;
}

/** Puts the run folder and the trainer at the start's checkpoint (undefined for a new run). */
export async function restoreStart(
  start: RunStart,
  layout: RunLayout,
  trainer: Trainer,
  config: ResolvedTrainConfig,
  schedule: OffPolicySchedule,
): Promise<RestoredRun | undefined> {
  if (start.type === "new") return undefined;
  if (start.type === "resume") return restoreRun(start.checkpoint, layout, trainer);
  return restoreFork(start.checkpoint, layout, trainer, config, schedule);
}
