/**
 * The metrics.jsonl row of one step, from the batch it trained on, what the trainer reported and
 * where the time went.
 */
import type { RolloutRecord } from "@vf-rl/core/results";
import { meanStd } from "../algorithm/advantages.ts";
import type { StepTrainResult } from "../algorithm/train-step.ts";
import type { CollectedBatch, TrainEnv } from "../rollouts/collect-batch.ts";
import type { StepTimes, TrainRow } from "./metrics-row.ts";

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
    reward_all_mean: meanStd(batch.all_records.map((r) => r.reward)).mean,
    env_reward: envReward,
    groups: {
      drawn: counts.drawn,
      kept: counts.kept,
      too_easy: counts.tooEasy,
      too_hard: counts.tooHard,
      no_spread: counts.noSpread,
      errored: counts.errored,
      surplus: counts.surplus,
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
    time_ms: times,
  };
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
