/**
 * The [sft] stage of a run: supervised fine-tuning (supervised/sft-loop.ts) through the trainer the
 * RL stage uses (the engine in this process, or `vf trainer serve`), in `<run>/sft/`, from step 0 or
 * from the stage's newest checkpoint. Each step is an `sft` row of the run's metrics.jsonl; the
 * stage checkpoints every save_every steps, when stopped, and at its last step (which marks it
 * finished: checkpoints/sft-checkpoint.ts). It knows nothing of the RL stage after it (run-stages.ts).
 */
import { existsSync } from "node:fs";
import { copyFile, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { UserError } from "@vf-rl/core";
import {
  HttpTrainer,
  type LocalTrainer,
  type ModelConfig,
  type Trainer,
  TrainerHttpError,
} from "@vf-rl/engine";
import { stringify as stringifyToml } from "smol-toml";
import { trainerStateDir } from "../checkpoints/run-checkpoint.ts";
import { type FoundSftCheckpoint, SftStageLayout, saveSftCheckpoint } from "../checkpoints/sft-checkpoint.ts";
import type { ResolvedTrainConfig } from "../config/load-train-config.ts";
import type { SftStageConfig } from "../config/sft-stage-config.ts";
import { vfErrorOf } from "../engine-errors.ts";
import { MetricsLog, type MetricsRow } from "../metrics/metrics-file.ts";
import type { SftRow } from "../metrics/sft-row.ts";
import type { RunLayout } from "../run-layout.ts";
import { sftItems } from "../supervised/sft-items.ts";
import { runSft, type SftProgress } from "../supervised/sft-loop.ts";
import { openTrainer } from "./open-run.ts";
import { sftStageConversations } from "./sft-stage-data.ts";

/** Conversations held out for the eval loss when the data has none of its own (as vf sft's default). */
const EVAL_SIZE = 64;

/** Options of `runSftStage`. */
export interface SftStageOptions {
  config: ResolvedTrainConfig;
  sft: SftStageConfig;
  layout: RunLayout;
  /** The stage's checkpoint to continue from; undefined: from step 0. */
  found: FoundSftCheckpoint | undefined;
  signal?: AbortSignal;
  log: (line: string) => void;
  onRow?: (row: MetricsRow) => void;
}

/** How the stage ended. */
export interface SftStageResult {
  /** Steps of the stage done, over every attempt. */
  steps: number;
  /** True when stopped by the signal before its max_steps. */
  interrupted: boolean;
  /** The stage's newest checkpoint (at max_steps when it finished); none when stopped before a step. */
  checkpoint: string | undefined;
}

/** Runs the stage to its max_steps, or until the signal stops it after a step. */
export async function runSftStage(options: SftStageOptions): Promise<SftStageResult> {
  const { config, sft, layout, found, log } = options;
  const stage = new SftStageLayout(layout.dir);
  const conversations = await sftStageConversations(config, sft);
  for (const note of conversations.notes) log(`sft: ${note}`);
  const { trainer, description } = await openTrainer(config).catch((error: unknown) => {
    throw error instanceof TrainerHttpError ? vfErrorOf(error) : error;
  });
  try {
    if (found) {
      await trainer.loadState(trainerStateDir(found.dir));
      // the run's rows as they were at the checkpoint's step
      const saved = join(found.dir, "metrics.jsonl");
      if (existsSync(saved)) await copyFile(saved, layout.metricsFile);
      else await rm(layout.metricsFile, { force: true });
    } else {
      await mkdir(layout.dir, { recursive: true });
      await writeFile(layout.configFile, stringifyToml(config as unknown as Record<string, unknown>));
    }
    const model = await modelConfigOf(trainer);
    const { train, held } = sftItems(conversations, {
      maxSeqLen: model.maxSeqLen,
      evalSize: EVAL_SIZE,
      log: (line) => log(`sft: ${line}`),
    });
    const from = found ? `from ${found.dir} (step ${found.progress.step})` : "from step 0";
    log(
      `stage sft: ${sft.max_steps} steps of ${sft.batch_size} conversations (${train.length}, ${held.length} held out) ${from} | ${description} | in ${stage.dir}`,
    );
    const metrics = new MetricsLog(layout.metricsFile);
    let checkpoint = found?.dir;
    const result = await runSft({
      trainer,
      train,
      eval: held,
      settings: {
        steps: sft.max_steps,
        batchSize: sft.batch_size,
        learningRate: sft.lr,
        ...(sft.warmup !== undefined ? { warmupSteps: sft.warmup } : {}),
        schedule: sft.schedule,
        weightDecay: sft.weight_decay,
        gradClipNorm: sft.clip,
        seed: config.seed,
        ...(sft.eval_every !== undefined ? { evalEvery: sft.eval_every } : {}),
        saveEvery: sft.save_every,
        outputDir: stage.dir,
      },
      ...(options.signal ? { signal: options.signal } : {}),
      ...(found
        ? {
            resume: {
              step: found.progress.step,
              trainLoss: found.progress.train_loss,
              evalLoss: found.progress.eval_loss,
              elapsedMs: found.progress.elapsed_ms,
            },
          }
        : {}),
      onStep: async (progress) => {
        const row = sftRow(progress);
        await metrics.append(row);
        options.onRow?.(row);
        if (progress.evalLoss !== null || progress.step === progress.totalSteps) log(formatSftLine(progress));
      },
      saveCheckpoint: async (standing) => {
        await metrics.flush();
        const dir = await saveSftCheckpoint({
          layout: stage,
          trainer,
          metricsFile: layout.metricsFile,
          progress: {
            step: standing.step,
            train_loss: standing.trainLoss,
            eval_loss: standing.evalLoss,
            elapsed_ms: standing.elapsedMs,
            config: JSON.parse(JSON.stringify(config)) as Record<string, unknown>,
            saved_at: new Date().toISOString(),
          },
        });
        log(`sft: checkpoint ${dir}`);
        checkpoint = dir;
        return dir;
      },
    });
    return { steps: result.steps, interrupted: result.steps < sft.max_steps, checkpoint };
  } catch (error) {
    throw error instanceof TrainerHttpError ? vfErrorOf(error) : error;
  } finally {
    await trainer.close();
  }
}

/** The model the trainer holds (its context bounds the conversations). */
async function modelConfigOf(trainer: Trainer): Promise<ModelConfig> {
  if (!(trainer instanceof HttpTrainer)) return (trainer as LocalTrainer).config;
  const { config } = await trainer.health();
  if (config === null) {
    throw new UserError(
      `the trainer server at ${trainer.url} holds no model: start vf trainer serve with --model (a checkpoint folder)`,
    );
  }
  return config;
}

function sftRow(p: SftProgress): SftRow {
  return {
    kind: "sft",
    step: p.step,
    time: Date.now() / 1000,
    loss: p.loss,
    ...(p.evalLoss !== null ? { eval_loss: p.evalLoss } : {}),
    learning_rate: p.learningRate,
    grad_norm: p.gradNorm,
    tokens: p.tokens,
    elapsed_ms: Math.round(p.elapsedMs),
  };
}

/** The console line of a step of the stage. */
export function formatSftLine(p: SftProgress): string {
  const evalLoss = p.evalLoss !== null ? ` | eval loss ${p.evalLoss.toFixed(4)}` : "";
  return `sft step ${p.step}/${p.totalSteps} | loss ${p.loss.toFixed(4)}${evalLoss} | lr ${p.learningRate.toExponential(2)} | ${Math.round(p.tokensPerSecond)} tok/s`;
}
