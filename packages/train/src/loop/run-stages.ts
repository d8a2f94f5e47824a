/**
 * `vf train` as a function, stages included: a config with an [sft] table runs a supervised stage
 * first (sft-stage.ts), in `<run>/sft/`, then the RL stage (runTraining), whose policy 0 is the
 * SFT stage's final weights with a fresh optimizer (as prime-rl's examples start `rl` from the
 * `sft` checkpoint's weights). Without [sft] it is runTraining.
 *
 * One run folder, resumable at any point: `--resume` during the SFT stage continues it from its
 * newest checkpoint; once the stage has a checkpoint at its max_steps it is finished and never run
 * again, and the RL stage starts (or resumes from its own checkpoints, as any run does).
 * metrics.jsonl holds the stage's `sft` rows, then the RL stage's rows.
 */
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { UserError } from "@vf-rl/core";
import { latestCheckpoint, trainerStateDir } from "../checkpoints/run-checkpoint.ts";
import { sameJson, savedWithDefaults } from "../checkpoints/saved-config.ts";
import {
  type FoundSftCheckpoint,
  latestSftCheckpoint,
  SftStageLayout,
} from "../checkpoints/sft-checkpoint.ts";
import { envSource } from "../config/env-source.ts";
import type { ResolvedTrainConfig } from "../config/load-train-config.ts";
import { type SftStageConfig, sftDataPaths } from "../config/sft-stage-config.ts";
import { type MetricsRow, readMetrics } from "../metrics/metrics-file.ts";
import { writeRewardCurve } from "../metrics/reward-curve.ts";
import { RunLayout } from "../run-layout.ts";
import { type RunTrainingOptions, type RunTrainingResult, runTraining } from "./run-training.ts";
import { runSftStage } from "./sft-stage.ts";

/** How a run of stages ended. */
export interface RunStagesResult extends RunTrainingResult {
  /** The stage the run ended in ("sft" only when stopped during it). */
  stage: "sft" | "rl";
}

/**
 * Runs the config's stages: [sft] (when set), then RL.
 *
 * @example
 * const config = await loadTrainConfig("configs/train/reverse-text-sft.toml");
 * const result = await runStages({ config });
 * console.log(`${result.stage}: ${result.steps} steps`);
 */
export async function runStages(options: RunTrainingOptions): Promise<RunStagesResult> {
  const { config } = options;
  const sft = config.sft;
  const rl = async (rlOptions: RunTrainingOptions): Promise<RunStagesResult> => ({
    ...(await runTraining(rlOptions)),
    stage: "rl",
  });
  if (sft === undefined) return rl(options);
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const layout = new RunLayout(resolve(config.output_dir));
  // A fork starts from another run's RL checkpoint, --resume-step N at one of this run's, and a
  // run with an RL checkpoint is past its SFT stage: the RL stage's own business, in every case.
  const pastSft = options.fork !== undefined || options.resumeStep !== undefined;
  if (pastSft || (await latestCheckpoint(layout)) !== undefined) {
    log("stage rl (the sft stage is done)");
    return rl(options);
  }

  let found = await sftStart(layout, config, sft, options.resume ?? false);
  if (found?.progress.step === sft.max_steps) {
    log(`stage sft: finished (${found.dir}), not run again`);
  } else {
    const ran = await runSftStage({
      config,
      sft,
      layout,
      found,
      log,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onRow ? { onRow: options.onRow } : {}),
    });
    if (ran.interrupted || ran.checkpoint === undefined) {
      const curve = await writeRewardCurve(layout);
      log(
        `stopped in the sft stage after ${ran.steps} of its ${sft.max_steps} steps | checkpoint ${ran.checkpoint ?? "none"}`,
      );
      return {
        runDir: layout.dir,
        steps: 0,
        interrupted: true,
        checkpoint: ran.checkpoint,
        curve,
        stage: "sft",
      };
    }
    found = await latestSftCheckpoint(new SftStageLayout(layout.dir));
  }
  if (found === undefined) throw new Error(`the sft stage in ${layout.dir} left no checkpoint`);

  // The hand-off: RL starts as a new run in this folder, from the stage's weights, with its rows.
  const weights = trainerStateDir(found.dir);
  const rows = await sftRows(join(found.dir, "metrics.jsonl"));
  await rm(layout.metricsFile, { force: true }); // rewritten by the RL stage, the sft rows first
  log(`stage rl: policy 0 is the sft stage's weights (${weights}), with a fresh optimizer`);
  return rl({ ...options, resume: false, previousStage: { weights, rows } });
}

/**
 * The SFT stage's checkpoint to continue from (undefined: step 0), after the checks a resume
 * makes: the folder holds no run unless `resume`, and the config still describes the stage.
 */
async function sftStart(
  layout: RunLayout,
  config: ResolvedTrainConfig,
  sft: SftStageConfig,
  resume: boolean,
): Promise<FoundSftCheckpoint | undefined> {
  const stage = new SftStageLayout(layout.dir);
  const found = await latestSftCheckpoint(stage);
  const started = found !== undefined || existsSync(layout.metricsFile) || existsSync(stage.dir);
  if (!resume) {
    if (!started) return undefined;
    throw new UserError(
      `${layout.dir} already holds a training run${found ? ` (its sft stage at step ${found.progress.step})` : ""}: pass --resume to continue it, or set output_dir (--output_dir DIR) to a new folder`,
    );
  }
  if (found === undefined) {
    throw new UserError(
      started
        ? `${layout.dir} holds a run whose sft stage never wrote a checkpoint, so --resume has nothing to continue from: delete the folder or set output_dir to a new one, and start without --resume`
        : `${layout.dir} holds no training run, so --resume has nothing to continue: check output_dir, or start without --resume for a new run`,
    );
  }
  // read as resume-run reads a checkpoint's config: keys added since at their defaults
  const saved = savedWithDefaults(found.progress.config, new Set());
  const current = JSON.parse(JSON.stringify(config)) as Record<string, unknown>;
  const changed = stageKeys(sft).filter((key) => !sameJson(saved[key], current[key]));
  if (changed.length > 0) {
    const what = changed.map(
      (key) => `${key} (${JSON.stringify(saved[key])} → ${JSON.stringify(current[key])})`,
    );
    throw new UserError(
      `--resume: the config changed ${what.join(", ")} since ${found.dir} was written, so the sft stage would not be the same: put them back, or start a new run in another output_dir`,
    );
  }
  return found;
}

/** The keys that decide what the SFT stage trains: the [[env]] tables only when they are its data. */
function stageKeys(sft: SftStageConfig): string[] {
  return ["model", "seed", "sft", ...(sftDataPaths(sft).length === 0 ? ["env"] : [])];
}

/** The `sft` rows of a metrics.jsonl (a checkpoint's copy). */
async function sftRows(path: string): Promise<MetricsRow[]> {
  if (!existsSync(path)) return [];
  return (await readMetrics(path)).rows.filter((row) => row.kind === "sft");
}

/** One line naming a config's stages, for --dry-run. */
export function describeStages(config: ResolvedTrainConfig): string {
  const rl = `rl (${config.max_steps} steps)`;
  const sft = config.sft;
  if (sft === undefined) return `stages: ${rl}`;
  const paths = sftDataPaths(sft);
  const data =
    paths.length > 0
      ? paths.join(", ")
      : `the reference answers of ${config.env.map((env) => envSource(env).id).join(", ")}`;
  return `stages: sft (${sft.max_steps} steps of ${sft.batch_size} on ${data}), then ${rl} from its weights`;
}
