/**
 * What a run reports: the metrics.jsonl row of a step (from the batch it trained on, what the
 * trainer reported and where the time went) and the numbers of an evaluation, each also as one
 * console line.
 */
import type { RolloutRecord } from "@vf-rl/core/results";
import { meanStd } from "../algorithm/advantages.ts";
import type { StepTrainResult } from "../algorithm/train-step.ts";
import type { CollectedBatch, TrainEnv } from "../rollouts/collect-batch.ts";
import { type EnvCurriculumRow, formatCurriculum } from "./curriculum-report.ts";
import { envStepRows } from "./env-report.ts";
import { formatRolloutFilters, rolloutFiltersRow } from "./filter-report.ts";
import type { EvalRow, StepTimes, TrainRow } from "./metrics-file.ts";

/** Builds the row of step `step` (1-based: steps done after it). */
export function stepRow(
  step: number,
  batch: CollectedBatch,
  trained: StepTrainResult,
  envs_E: readonly TrainEnv[],
  times: StepTimes,
): TrainRow {
  const groups_P = batch.groups_P;
  const records_B = groups_P.flatMap((g) => g.records_G);
  const rewards = meanStd(records_B.map((r) => r.reward));
  const completionLengths_B = records_B.map(completionTokens);
  const staleness_B = groups_P.flatMap((g) => g.versions_G.map((v) => step - 1 - v));
  const envReward: Record<string, number> = {};
  envs_E.forEach(({ id }, envIndex) => {
    const ofEnv = batch.all_records.filter((_, i) => envOf(batch, i) === envIndex);
    if (ofEnv.length > 0) envReward[id] = meanStd(ofEnv.map((r) => r.reward)).mean;
  });
  const counts = batch.counts;
  return {
    kind: "train",
    step,
    time: Date.now() / 1000,
    reward_mean: rewards.mean,
    reward_std: rewards.std,
    // a batch made of carried groups alone sampled nothing: its trained rollouts are all there are
    reward_all_mean:
      batch.all_records.length > 0 ? meanStd(batch.all_records.map((r) => r.reward)).mean : rewards.mean,
    env_reward: envReward,
    per_env: envStepRows(batch, envs_E),
    groups: {
      drawn: counts.drawn,
      kept: counts.kept,
      too_easy: counts.tooEasy,
      too_hard: counts.tooHard,
      no_spread: counts.noSpread,
      errored: counts.errored,
      rejected: counts.rejected,
      surplus: counts.surplus,
      carried: counts.carried,
      stale: counts.stale,
    },
    rounds: batch.rounds,
    rollouts: records_B.length,
    errors: batch.all_records.filter((r) => r.error !== null).length,
    tokens: {
      prompt: records_B.reduce((n, r) => n + promptTokens(r), 0),
      completion: completionLengths_B.reduce((a, b) => a + b, 0),
      trained: trained.trainedTokens,
    },
    completion_len_mean: meanStd(completionLengths_B).mean,
    completion_len_max: Math.max(0, ...completionLengths_B),
    turns_mean: meanStd(records_B.map((r) => r.trajectory.length)).mean,
    truncated_share:
      records_B.length > 0 ? records_B.filter((r) => r.is_truncated).length / records_B.length : 0,
    loss: trained.loss,
    entropy: trained.entropy,
    mismatch_kl: trained.mismatchKl,
    masked_share: trained.maskedShare,
    grad_norm: trained.gradNorm,
    learning_rate: trained.learningRate,
    off_policy_mean: meanStd(staleness_B).mean,
    off_policy_max: Math.max(0, ...staleness_B),
    off_policy_dropped: counts.staleRollouts,
    rollout_filters: rolloutFiltersRow(batch.rolloutFilters),
    curriculum: curriculumOf(batch, envs_E),
    ...(batch.teacher ? { teacher_kl: batch.teacher.kl } : {}),
    time_ms: batch.teacher ? { ...times, teacher: batch.teacher.ms } : times,
  };
}

/** Each environment's curriculum after the batch, by id. */
function curriculumOf(batch: CollectedBatch, envs_E: readonly TrainEnv[]): Record<string, EnvCurriculumRow> {
  const curriculum: Record<string, EnvCurriculumRow> = {};
  envs_E.forEach(({ id }, envIndex) => {
    const rows = batch.rows_E[envIndex];
    if (rows) curriculum[id] = { ...rows, rejected: batch.rejected_E[envIndex] ?? {} };
  });
  return curriculum;
}

/** Sampled tokens over a rollout's turns (token ids when present, else the server's usage count). */
export function completionTokens(record: RolloutRecord): number {
  let n = 0;
  for (const step of record.trajectory) n += step.tokens?.completion_ids.length ?? 0;
  return n > 0 ? n : (record.token_usage?.output_tokens ?? 0);
}

/** Prompt tokens of a rollout's last turn (its context before the final completion). */
function promptTokens(record: RolloutRecord): number {
  const last = record.trajectory.at(-1)?.tokens;
  return last ? last.prompt_ids.length : (record.token_usage?.final_input_tokens ?? 0);
}

/** The environment of `batch.all_records[i]`. */
function envOf(batch: CollectedBatch, i: number): number {
  return batch.all_records_env[i]!;
}

/** Mean, standard deviation and the 95% interval of the mean (normal approximation). */
export function rewardInterval(rewards: readonly number[]): {
  reward_mean: number;
  reward_std: number;
  ci95_low: number;
  ci95_high: number;
} {
  const n = rewards.length;
  if (n === 0) return { reward_mean: 0, reward_std: 0, ci95_low: 0, ci95_high: 0 };
  const mean = rewards.reduce((a, b) => a + b, 0) / n;
  const variance = n > 1 ? rewards.reduce((a, r) => a + (r - mean) ** 2, 0) / (n - 1) : 0;
  const half = 1.96 * Math.sqrt(variance / n);
  return {
    reward_mean: mean,
    reward_std: Math.sqrt(variance),
    ci95_low: mean - half,
    ci95_high: mean + half,
  };
}

/**
 * A step as one line, e.g.
 * `step 3/40 | reward 0.512 ± 0.210 (all 0.480) | groups 8/10 (1 easy, 1 flat) | loss -0.0012 ...`
 */
export function formatStepLine(row: TrainRow, maxSteps: number): string {
  const g = row.groups;
  const dropped = [
    g.too_easy > 0 ? `${g.too_easy} easy` : "",
    g.too_hard > 0 ? `${g.too_hard} hard` : "",
    g.no_spread > 0 ? `${g.no_spread} flat` : "",
    g.errored > 0 ? `${g.errored} errored` : "",
    g.rejected > 0 ? `${g.rejected} rejected` : "",
    g.surplus > 0 ? `${g.surplus} surplus` : "",
    g.carried > 0 ? `${g.carried} carried` : "",
  ].filter(Boolean);
  const stale =
    row.off_policy_dropped > 0
      ? ` (stale: ${g.stale} groups, ${row.off_policy_dropped} rollouts dropped)`
      : "";
  const t = row.time_ms;
  const filters = formatRolloutFilters(row.rollout_filters ?? { zero_advantage: 0 });
  const curriculum = formatCurriculum(row.curriculum ?? {});
  return [
    `step ${row.step}/${maxSteps}`,
    `reward ${row.reward_mean.toFixed(3)} ± ${row.reward_std.toFixed(3)} (all ${row.reward_all_mean.toFixed(3)})`,
    // of the groups this batch had: drawn for it, and carried from the last one
    `groups ${g.kept}/${g.drawn + g.carried}${dropped.length > 0 ? ` (${dropped.join(", ")})` : ""}`,
    `loss ${fmt(row.loss)}`,
    `entropy ${row.entropy.toFixed(3)}`,
    `kl ${fmt(row.mismatch_kl)}`,
    ...(row.teacher_kl !== undefined ? [`teacher kl ${fmt(row.teacher_kl)}`] : []),
    `grad ${row.grad_norm.toFixed(3)}`,
    `tokens ${compact(row.tokens.trained)}`,
    ...(filters ? [filters] : []),
    `len ${row.completion_len_mean.toFixed(1)}`,
    `off-policy ${row.off_policy_max}${stale}`,
    ...(curriculum ? [curriculum] : []),
    `${secs(t.step)} (wait ${secs(t.wait_for_batch)}, sample ${secs(t.generate)}, train ${secs(t.forward_backward + t.optim)}, save ${secs(t.save_weights + t.checkpoint)})`,
  ].join(" | ");
}

/** An evaluation as one line, e.g. `eval @ step 10 | reverse-text 0.612 [0.581, 0.643] over 64 rollouts | 8.1s`. */
export function formatEvalLine(row: EvalRow): string {
  return `eval @ step ${row.step} | ${row.env} ${row.reward_mean.toFixed(3)} [${row.ci95_low.toFixed(3)}, ${row.ci95_high.toFixed(3)}] over ${row.rollouts} rollouts | ${secs(row.time_ms)}`;
}

function fmt(x: number): string {
  return Math.abs(x) >= 1e-3 || x === 0 ? x.toFixed(4) : x.toExponential(2);
}

function compact(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

function secs(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}
