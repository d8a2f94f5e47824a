/**
 * `vf train` as a function: the whole RL loop of a config, from the first step (or the newest
 * checkpoint with `resume`) to max_steps. The sampler side (sampler-side.ts) collects batches
 * while the trainer side (trainer-side.ts) trains on them: forwardBackward and optimStep through
 * the trainer protocol, saveWeights, and the inference server loads them for the batches that
 * follow, each batch from the policy the off-policy schedule names (off-policy.ts).
 * Each step goes to the console and to metrics.jsonl; checkpoints every checkpoints.interval steps
 * and when the run ends or is interrupted; the reward curve at the end.
 */
import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { CancelledError } from "@vf-rl/core";
import { makeFolder } from "@vf-rl/core/results";
import { type Trainer, TrainerHttpError } from "@vf-rl/engine";
import { stringify as stringifyToml } from "smol-toml";
import {
  findRunStart,
  type RunStartOptions,
  restoreStart,
  trainerConfigOf,
} from "../checkpoints/run-start.ts";
import { algoNotes } from "../config/algo-config.ts";
import { configNotes } from "../config/config-rules.ts";
import type { ResolvedTrainConfig } from "../config/load-train-config.ts";
import { vfErrorOf } from "../engine-errors.ts";
import {
  connectInference,
  type InferenceEndpoint,
  startLocalInference,
} from "../inference/inference-endpoint.ts";
import { openTeacher, type TeacherEndpoint } from "../inference/teacher-endpoint.ts";
import { MetricsLog, type MetricsRow } from "../metrics/metrics-file.ts";
import { writeRewardCurve } from "../metrics/reward-curve.ts";
import { formatEvalLine } from "../metrics/step-report.ts";
import { CarryBuffer } from "../rollouts/carry-buffer.ts";
import { envWeights } from "../rollouts/env-weights.ts";
import { PolicyClient } from "../rollouts/policy-client.ts";
import { PromptSource } from "../rollouts/prompt-source.ts";
import { RunLayout } from "../run-layout.ts";
import { evalSources } from "./eval-sources.ts";
import { BatchQueue, PolicyVersions } from "./handoff.ts";
import { OffPolicySchedule } from "./off-policy.ts";
import { loadRunEnvironments, openTrainer } from "./open-run.ts";
import {
  evalDue,
  evaluateIfDue,
  loadPolicy,
  type ProducedBatch,
  produceBatches,
  type SamplerSide,
} from "./sampler-side.ts";
import { trainSteps } from "./trainer-side.ts";

/**
 * Options of `runTraining`. Where it starts (RunStartOptions): `resume` continues from the newest
 * checkpoint in output_dir (default false: the folder must hold no run), `resumeStep` from the
 * checkpoint of that step (what came after it is discarded), `fork` starts a new run from another
 * run's checkpoint.
 */
export interface RunTrainingOptions extends RunStartOptions {
  config: ResolvedTrainConfig;
  /** Stops the run after the step in progress; a checkpoint is written (Ctrl-C). */
  signal?: AbortSignal;
  /** Receives one line per step, evaluation and notice (default: stdout). */
  log?: (line: string) => void;
  /** Receives every metrics row as it is written. */
  onRow?: (row: MetricsRow) => void;
  /**
   * The stage before a new run's RL, the [sft] stage (run-stages.ts): its weights are policy 0,
   * with a fresh optimizer, and its metrics rows open metrics.jsonl.
   */
  previousStage?: { weights: string; rows: readonly MetricsRow[] };
}

/** How a run ended. */
export interface RunTrainingResult {
  runDir: string;
  /** Optimizer steps done, over every attempt. */
  steps: number;
  /** True when stopped by the signal before max_steps. */
  interrupted: boolean;
  /** The newest checkpoint folder. */
  checkpoint: string | undefined;
  /** The reward curve (SVG) and its HTML page. */
  curve: { svg: string; html: string };
}

/**
 * Trains a model on the config's environments.
 *
 * @example
 * const config = await loadTrainConfig("configs/train/reverse-text.toml");
 * const result = await runTraining({ config });
 * console.log(`${result.steps} steps; curve at ${result.curve.html}`);
 */
export async function runTraining(options: RunTrainingOptions): Promise<RunTrainingResult> {
  const { config } = options;
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  // absolute, as folders are named to the inference server and a remote trainer
  const layout = new RunLayout(resolve(config.output_dir));
  const schedule = new OffPolicySchedule(config.max_async_level);
  const attemptStarted = Date.now();
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) stop.abort();

  const runStart = await findRunStart(layout, config, options);
  await makeFolder(layout.checkpointsDir);
  await makeFolder(layout.weightsDir);
  const metrics = new MetricsLog(layout.metricsFile);
  const { envs_E, rows_E, evalEnvs, notices } = await loadRunEnvironments(config);
  for (const notice of [...configNotes(config), ...algoNotes(config.algo, config.sampling), ...notices]) {
    log(`note: ${notice}`);
  }
  let trainer: Trainer | undefined;
  let inference: InferenceEndpoint | undefined;
  let teacher: TeacherEndpoint | undefined;
  let sampling: Promise<void> = Promise.resolve();
  try {
    const opened = await openTrainer(trainerConfigOf(runStart, config));
    trainer = opened.trainer;
    const restored = await restoreStart(runStart, layout, trainer, config, schedule);
    const start = restored?.step ?? 0;
    const at = `(step ${start} of ${config.max_steps})`;
    if (runStart.type === "resume") log(`resuming ${layout.dir} from ${runStart.checkpoint.dir} ${at}`);
    if (runStart.type === "fork")
      log(`forking ${runStart.checkpoint.dir} into a new run in ${layout.dir} ${at}`);
    for (const note of restored?.notes ?? []) log(note);
    if (runStart.type !== "resume") {
      await writeFile(layout.configFile, stringifyToml(config as unknown as Record<string, unknown>));
    }
    if (runStart.type === "new") {
      if (options.previousStage) await trainer.loadWeights(options.previousStage.weights);
      for (const row of options.previousStage?.rows ?? []) await metrics.append(row);
      await trainer.saveWeights(layout.weights(0));
    }
    const firstPolicy = schedule.policyOf(start);
    inference =
      config.inference.url === undefined
        ? await startLocalInference(layout.weights(firstPolicy))
        : await connectInference({
            baseUrl: config.inference.url,
            model: config.inference.model,
            apiKeyVar: config.inference.api_key_var,
          });
    const server = { version: config.inference.url === undefined ? firstPolicy : -1 };
    log(
      `run folder ${layout.dir} | ${opened.description} | inference at ${inference.baseUrl} (${inference.model})`,
    );
    if (config.algo.type === "opd") {
      teacher = await openTeacher(config.algo.teacher, inference);
      log(`distilling from ${teacher.description}`);
      for (const note of teacher.notes) log(`note: ${note}`);
    }

    const versions = new PolicyVersions(start);
    const queue = new BatchQueue<ProducedBatch>();
    const client = new PolicyClient({ inner: inference.client, version: () => server.version });
    const writeRow = async (row: MetricsRow): Promise<void> => {
      await metrics.append(row);
      options.onRow?.(row);
    };
    const side: SamplerSide = {
      config,
      schedule,
      layout,
      envs_E,
      evals: config.eval ? evalSources(config.eval, envs_E, evalEnvs) : [],
      source: new PromptSource({
        rows_E,
        seed: config.seed,
        samplers_E: envs_E.map(({ id }, e) => ({
          envId: id,
          config: config.env[e]?.curriculum?.sampler ?? { type: "standard" },
        })),
        state: restored?.source,
        weights_E: envWeights(config.env),
      }),
      carry: new CarryBuffer(restored?.carry),
      inference,
      client,
      sampling: samplingArgs(config),
      versions,
      queue,
      server,
      evaluated: restored?.evaluated ?? new Set(),
      onEval: async (row) => {
        await writeRow(row);
        log(formatEvalLine(row));
      },
      signal: stop.signal,
      teacher: teacher?.scorer,
    };
    const stopSides = (error?: unknown): void => {
      versions.stop(error);
      queue.stop(error);
      stop.abort(); // after: its listener stops them again without the error, which is ignored
    };
    stop.signal.addEventListener("abort", () => stopSides(), { once: true });
    sampling = produceBatches(side, start).catch((error: unknown) => {
      if (!(error instanceof CancelledError)) stopSides(error);
    });

    const trained = await trainSteps({
      config,
      schedule,
      layout,
      trainer,
      metrics,
      queue,
      versions,
      envs_E,
      start,
      elapsedBefore: restored?.elapsedMs ?? 0,
      attemptStarted,
      initialSource: restored?.source ?? side.source.state(),
      initialCarry: side.carry.state(),
      lineage: restored?.lineage ?? [],
      writeRow,
      log,
    }).catch((error: unknown) => {
      stopSides(error);
      throw error;
    });
    stopSides();
    await sampling;
    const interrupted = trained.steps < config.max_steps;
    if (!interrupted && !options.signal?.aborted) {
      // the policies past the last batch's: evaluate the due ones, the final one included
      const sideAfter = { ...side, signal: options.signal ?? new AbortController().signal };
      for (let v = server.version + 1; v <= config.max_steps; v++) {
        if (!evalDue(config, v)) continue;
        await loadPolicy(side, v);
        await evaluateIfDue(sideAfter, v);
      }
    }
    await metrics.flush();
    const curve = await writeRewardCurve(layout);
    log(
      `${interrupted ? "stopped" : "done"} after ${trained.steps} steps | checkpoint ${trained.checkpoint ?? "none"} | reward curve ${curve.html}`,
    );
    return { runDir: layout.dir, steps: trained.steps, interrupted, checkpoint: trained.checkpoint, curve };
  } catch (error) {
    // a trainer server's refusal (a bad batch) is the user's to fix, its failure the server's side:
    // told as vf's errors, in one line
    throw error instanceof TrainerHttpError ? vfErrorOf(error) : error;
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    stop.abort();
    await sampling; // never rejects: its errors went to the trainer side
    await inference?.close();
    await teacher?.close();
    await trainer?.close();
    for (const { env } of [...envs_E, ...evalEnvs]) await env.teardown();
  }
}

/** The sampling args every rollout sends. */
function samplingArgs(config: ResolvedTrainConfig): Record<string, unknown> {
  const s = config.sampling;
  return {
    max_tokens: s.max_tokens,
    temperature: s.temperature,
    top_p: s.top_p,
    top_k: s.top_k,
    min_p: s.min_p,
    repetition_penalty: s.repetition_penalty,
  };
}
