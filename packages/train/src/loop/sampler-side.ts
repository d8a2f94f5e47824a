/**
 * The sampler side of a run: for each step's batch, in order, wait until the policy it must be
 * sampled with (off-policy.ts) is published, have the inference server load it, evaluate it when
 * an evaluation is due, collect the batch, have the teacher score it under [algo] type "opd"
 * (algorithm/distillation.ts), and queue it for the trainer.
 *
 * An evaluation runs each eval source's eval split (eval-sources.ts: the training environments, or
 * the [[eval.env]] ones; its first `num_examples` rows, the same rows every time) against the
 * policy the inference server holds, with the training sampling args (overridden by
 * [eval.sampling]) and a seed fixed per policy version, so a resumed run's evaluations repeat the
 * unbroken run's.
 */
import { evaluate, type SamplingArgs } from "@vf-rl/core";
import { tokenizer } from "@vf-rl/engine";
import type { DifficultyThresholds } from "../algorithm/difficulty-filter.ts";
import { distillBatch } from "../algorithm/distillation.ts";
import { type RolloutFilterOptions, rolloutFilters } from "../algorithm/rollout-filters.ts";
import type { ResolvedTrainConfig } from "../config/load-train-config.ts";
import type { InferenceEndpoint } from "../inference/inference-endpoint.ts";
import type { EvalRow } from "../metrics/metrics-file.ts";
import { rewardInterval } from "../metrics/step-report.ts";
import type { CarriedGroup, CarryBuffer } from "../rollouts/carry-buffer.ts";
import { type CollectedBatch, collectBatch, serverRunner, type TrainEnv } from "../rollouts/collect-batch.ts";
import { mixSeed, type PolicyClient } from "../rollouts/policy-client.ts";
import type { PromptSource, PromptSourceState } from "../rollouts/prompt-source.ts";
import type { TeacherScorer } from "../rollouts/teacher-scorer.ts";
import type { RunLayout } from "../run-layout.ts";
import type { EvalSource } from "./eval-sources.ts";
import type { BatchQueue, PolicyVersions } from "./handoff.ts";
import type { OffPolicySchedule } from "./off-policy.ts";
import { OffPolicyBound } from "./staleness.ts";

/** A batch on its way to the trainer. */
export interface ProducedBatch {
  /** The step it is for (0-based). */
  index: number;
  batch: CollectedBatch;
  /** The prompt source after collecting it: where the next batch starts. */
  sourceAfter: PromptSourceState;
  /** The carry buffer after collecting it: the groups the next batch takes first. */
  carryAfter: CarriedGroup[];
  /** Milliseconds the inference server took to load this batch's policy (0 when it held it). */
  updateWeightsMs: number;
}

/** What the sampler side works with. */
export interface SamplerSide {
  config: ResolvedTrainConfig;
  schedule: OffPolicySchedule;
  layout: RunLayout;
  envs_E: readonly TrainEnv[];
  /** What evaluations run (eval-sources.ts); empty without [eval]. */
  evals: readonly EvalSource[];
  source: PromptSource;
  /** Groups kept beyond earlier batches' need, for the next batches. */
  carry: CarryBuffer;
  inference: InferenceEndpoint;
  client: PolicyClient;
  sampling: SamplingArgs;
  versions: PolicyVersions;
  queue: BatchQueue<ProducedBatch>;
  /** The policy version the inference server holds now; updated on every load. */
  server: { version: number };
  /** Versions already evaluated (by this run or before a resume). */
  evaluated: Set<number>;
  onEval: (row: EvalRow) => Promise<void>;
  signal: AbortSignal;
  /** Under [algo] type "opd": the teacher that scores each batch before it is queued. */
  teacher?: TeacherScorer | undefined;
}

/** Samples the batches of steps `from` .. max_steps − 1; returns early when stopped. */
export async function produceBatches(side: SamplerSide, from: number): Promise<void> {
  const { config } = side;
  // under distillation every sampled token carries the teacher's signal, whatever the rewards
  const distilling = config.algo.type === "opd";
  const thresholds: DifficultyThresholds = {
    easyThreshold: config.easy_threshold,
    hardThreshold: config.hard_threshold,
    keepNoSpread: distilling,
  };
  const bound = new OffPolicyBound(config.max_off_policy_steps);
  // every model the loop trains is an engine model, whose vocabulary is the byte tokenizer's
  const filters: RolloutFilterOptions = {
    filters: rolloutFilters(config.filters, tokenizer.vocabSize),
    filterZeroAdvantages: config.filter_zero_advantages && !distilling,
  };
  for (let b = from; b < config.max_steps; b++) {
    const need = side.schedule.policyOf(b);
    if (!(await side.versions.until(need)) || side.signal.aborted) return;
    const updateWeightsMs = await loadPolicy(side, need);
    await evaluateIfDue(side, need);
    if (side.signal.aborted) return;
    const aged = bound.ageOut(side.carry, b); // before the batch takes its carried groups
    const collected = await collectBatch({
      envs_E: side.envs_E,
      source: side.source,
      client: side.client,
      model: side.inference.model,
      sampling: side.sampling,
      groups: config.batch_size / config.rollouts_per_example,
      rolloutsPerExample: config.rollouts_per_example,
      oversamplingFactor: config.oversampling_factor,
      thresholds,
      normalizeStd: config.advantage.normalize_std,
      lengthPenalty: config.advantage.length_penalty,
      rolloutFilters: filters,
      maxConcurrent: config.max_concurrent,
      batchIndex: b,
      seed: config.seed,
      signal: side.signal,
      carry: side.carry,
      gates_E: config.env.map((env) => env.curriculum?.gates),
    });
    if (side.signal.aborted) return; // a batch cut short by Ctrl-C is not trained on
    const batch = await distillIfTeacher(side, bound.apply(collected, b, aged));
    if (side.signal.aborted) return;
    side.queue.push({
      index: b,
      batch,
      sourceAfter: side.source.state(),
      carryAfter: side.carry.state(),
      updateWeightsMs,
    });
  }
}

/** Under [algo] type "opd": the batch with its advantages distilled from the teacher's logprobs. */
async function distillIfTeacher(side: SamplerSide, batch: CollectedBatch): Promise<CollectedBatch> {
  const algo = side.config.algo;
  if (algo.type !== "opd" || side.teacher === undefined) return batch;
  const teacher = side.teacher;
  try {
    return await distillBatch(batch, {
      klCoef: algo.kl_coef,
      rewardWeight: algo.reward_weight,
      score: (tokens_T) => teacher.score(tokens_T, side.signal),
      maxConcurrent: side.config.max_concurrent,
    });
  } catch (error) {
    if (side.signal.aborted) return batch; // Ctrl-C cut the scoring short: the caller drops the batch
    throw error;
  }
}

/** Loads the policy of `version` into the inference server unless it holds it; returns the milliseconds. */
export async function loadPolicy(
  side: Pick<SamplerSide, "inference" | "layout" | "server">,
  version: number,
): Promise<number> {
  if (side.server.version === version) return 0;
  const started = performance.now();
  await side.inference.updateWeights(side.layout.weights(version));
  side.server.version = version;
  return performance.now() - started;
}

/** Whether the policy of `version` is evaluated: every eval.interval steps, the first and the last. */
export function evalDue(config: ResolvedTrainConfig, version: number): boolean {
  if (config.eval === undefined) return false;
  if (version === 0 || version === config.max_steps) return true;
  return config.eval.interval > 0 && version % config.eval.interval === 0;
}

/** Evaluates the policy the server holds (`version`) when due and not done yet. */
export async function evaluateIfDue(side: SamplerSide, version: number): Promise<void> {
  const config = side.config;
  const evalConfig = config.eval;
  if (evalConfig === undefined || !evalDue(config, version) || side.evaluated.has(version)) return;
  const rows: EvalRow[] = [];
  for (const [index, { env: source, numExamples, rolloutsPerExample }] of side.evals.entries()) {
    const { id, env, server } = source;
    const started = performance.now();
    const sampling = { ...side.sampling, ...evalConfig.sampling };
    const result = await evaluate(env, {
      envId: id,
      ...(server ? { runUnit: serverRunner(server, side.client, side.inference.model, sampling) } : {}),
      clients: side.client.forGroup(mixSeed(config.seed, 0xe7a1, index, version)),
      model: side.inference.model,
      sampling,
      numExamples,
      rolloutsPerExample,
      maxConcurrent: config.max_concurrent,
      maxRetries: 2,
      signal: side.signal,
    });
    if (result.cancelled) return; // cancelled part way: not counted as done
    const rewards = result.records.map((r) => r.reward);
    rows.push({
      kind: "eval",
      step: version,
      time: Date.now() / 1000,
      env: id,
      ...rewardInterval(rewards),
      rollouts: rewards.length,
      time_ms: performance.now() - started,
    });
  }
  side.evaluated.add(version);
  for (const row of rows) await side.onEval(row);
}
