/**
 * The trainer side of a run: takes each batch as the sampler side queues it, trains one step on it
 * through the trainer protocol (forwardBackward on micro-batches, optimStep at the scheduled
 * learning rate), saves the weights for the inference server, publishes the new policy version,
 * writes the step's metrics row and console line, and checkpoints when due, and once more when the
 * run stops early, so no finished step is lost.
 */
import { readdir, rm } from "node:fs/promises";
import { type LossInput, type LrSchedule, learningRateAt, type Trainer } from "@vf-rl/engine";
import { trainStep } from "../algorithm/train-step.ts";
import type { RunLineage } from "../checkpoints/lineage.ts";
import { type RunProgress, saveRunCheckpoint } from "../checkpoints/run-checkpoint.ts";
import type { ResolvedTrainConfig } from "../config/load-train-config.ts";
import { formatEnvLines } from "../metrics/env-report.ts";
import type { MetricsLog, MetricsRow } from "../metrics/metrics-file.ts";
import { formatStepLine, stepRow } from "../metrics/step-report.ts";
import type { CarriedGroup } from "../rollouts/carry-buffer.ts";
import type { TrainEnv } from "../rollouts/collect-batch.ts";
import type { PromptSourceState } from "../rollouts/prompt-source.ts";
import type { RunLayout } from "../run-layout.ts";
import type { BatchQueue, PolicyVersions } from "./handoff.ts";
import type { OffPolicySchedule } from "./off-policy.ts";
import type { ProducedBatch } from "./sampler-side.ts";

/** What the trainer side works with. */
export interface TrainerSide {
  config: ResolvedTrainConfig;
  schedule: OffPolicySchedule;
  layout: RunLayout;
  trainer: Trainer;
  metrics: MetricsLog;
  /** The batches the sampler side collects, in order. */
  queue: BatchQueue<ProducedBatch>;
  /** Where each trained step's policy is published, for the sampler side to wait on. */
  versions: PolicyVersions;
  /** The run's environments, for the per-environment rewards of each step's row. */
  envs_E: readonly TrainEnv[];
  start: number;
  elapsedBefore: number;
  attemptStarted: number;
  /** The prompt source at the start of batch `start`. */
  initialSource: PromptSourceState;
  /** The carry buffer at the start of batch `start`. */
  initialCarry: CarriedGroup[];
  /** The runs this one was forked from, saved in each checkpoint. */
  lineage: RunLineage;
  writeRow: (row: MetricsRow) => Promise<void>;
  log: (line: string) => void;
}

/** Trains steps start .. max_steps − 1 as their batches arrive; stops early with the sampler. */
export async function trainSteps(t: TrainerSide): Promise<{ steps: number; checkpoint: string | undefined }> {
  const { config, layout, trainer } = t;
  const schedule = lrSchedule(config);
  let steps = t.start;
  let sourceAtSteps = t.initialSource;
  let carryAtSteps = t.initialCarry;
  let checkpoint: string | undefined;
  let checkpointedStep = t.start;
  let checkpointMs = 0;
  let stepStarted = performance.now();
  const writeCheckpoint = async (): Promise<void> => {
    const started = performance.now();
    const progress: RunProgress = {
      step: steps,
      source: sourceAtSteps,
      carry: carryAtSteps,
      policies: t.schedule.checkpointPolicies(steps),
      elapsed_ms: t.elapsedBefore + (Date.now() - t.attemptStarted),
      config: JSON.parse(JSON.stringify(config)) as Record<string, unknown>,
      saved_at: new Date().toISOString(),
      lineage: t.lineage,
    };
    await t.metrics.flush();
    checkpoint = await saveRunCheckpoint({
      layout,
      trainer,
      progress,
      metricsFile: layout.metricsFile,
      retention: config.checkpoints,
    });
    checkpointedStep = steps;
    checkpointMs = performance.now() - started;
  };

  while (steps < config.max_steps) {
    const waitStarted = performance.now();
    const produced = await t.queue.take();
    if (produced === undefined) break;
    const waitMs = performance.now() - waitStarted;
    const result = await trainStep(
      trainer,
      produced.batch.groups_P.flatMap((g) => g.items_G_D),
      {
        microBatchSize: config.micro_batch_size,
        loss: lossOf(config),
        adam: {
          learningRate: learningRateAt(schedule, steps),
          beta1: config.optimizer.beta1,
          beta2: config.optimizer.beta2,
          weightDecay: config.optimizer.weight_decay,
          gradClipNorm: config.optimizer.max_grad_norm,
        },
      },
    );
    const saveStarted = performance.now();
    await trainer.saveWeights(layout.weights(steps + 1));
    const saveMs = performance.now() - saveStarted;
    steps += 1;
    sourceAtSteps = produced.sourceAfter;
    carryAtSteps = produced.carryAfter;
    t.versions.publish(steps);
    const row = stepRow(steps, produced.batch, result, t.envs_E, {
      step: performance.now() - stepStarted,
      wait_for_batch: waitMs,
      generate: produced.batch.generationMs,
      update_weights: produced.updateWeightsMs,
      forward_backward: result.forwardBackwardMs,
      optim: result.optimMs,
      save_weights: saveMs,
      checkpoint: checkpointMs,
    });
    await t.writeRow(row);
    t.log(formatStepLine(row, config.max_steps));
    for (const line of formatEnvLines(row.per_env ?? {}, row.env_reward)) t.log(line);
    checkpointMs = 0;
    stepStarted = performance.now();
    const interval = config.checkpoints.interval;
    if ((interval > 0 && steps % interval === 0) || steps === config.max_steps) await writeCheckpoint();
    await pruneWeights(layout, t.schedule.oldestNeeded(steps));
  }
  if (steps > checkpointedStep) await writeCheckpoint(); // interrupted: keep every finished step
  return { steps, checkpoint };
}

/** Deletes the policy weights older than `oldest`, which the run never loads again. */
async function pruneWeights(layout: RunLayout, oldest: number): Promise<void> {
  for (const name of await readdir(layout.weightsDir)) {
    const version = /^step_(\d+)$/.exec(name)?.[1];
    if (version !== undefined && Number(version) < oldest) {
      await rm(layout.weights(Number(version)), { recursive: true, force: true });
    }
  }
}

function lossOf(config: ResolvedTrainConfig): LossInput {
  const temperature = config.sampling.temperature;
  return config.loss.type === "importance_sampling"
    ? ({ type: "importance_sampling", temperature } as const)
    : ({
        type: "masked_importance_sampling",
        maskLow: config.loss.mask_low,
        maskHigh: config.loss.mask_high,
        temperature,
      } as const);
}

function lrSchedule(config: ResolvedTrainConfig): LrSchedule {
  const o = config.optimizer;
  // A warmup longer than the run is cut to the run (configNotes says so when the run starts).
  const warmupSteps = Math.min(o.warmup_steps, config.max_steps);
  return o.schedule === "cosine"
    ? {
        type: "cosine",
        peakLr: o.learning_rate,
        warmupSteps,
        totalSteps: config.max_steps,
        minLr: o.min_learning_rate,
      }
    : { type: "constant", peakLr: o.learning_rate, warmupSteps };
}
