/**
 * metrics.jsonl: one `train` row per optimizer step and one `eval` row per evaluation of an
 * environment, appended one line at a time as each happens, and read back leniently by `vf plot`
 * and resume (a run killed mid-write leaves at most a partial last line, which is skipped). Each
 * checkpoint keeps a copy, which a resumed run starts from, so every step appears once.
 */
import { appendFile, readFile } from "node:fs/promises";
import { z } from "zod";
import { EnvCurriculumRow } from "./curriculum-report.ts";
import { EnvStepRow } from "./env-report.ts";
import { RolloutFiltersRow } from "./filter-report.ts";
import { SftRow } from "./sft-row.ts";

/** Milliseconds spent in each part of a step. */
export const StepTimes = z.object({
  /** The whole step, from the end of the previous one. */
  step: z.number(),
  /** Waiting for the batch: high when sampling is the bottleneck. */
  wait_for_batch: z.number(),
  /** Sampling the batch (overlaps earlier steps' training when max_async_level > 0). */
  generate: z.number(),
  /** The inference server loading the weights the batch was sampled with. */
  update_weights: z.number(),
  forward_backward: z.number(),
  optim: z.number(),
  save_weights: z.number(),
  checkpoint: z.number(),
  /** The teacher scoring the batch (on the sampler side, under [algo] type "opd"). */
  teacher: z.number().optional(),
});
export type StepTimes = z.infer<typeof StepTimes>;

/** One optimizer step. */
export const TrainRow = z.object({
  kind: z.literal("train"),
  /** Optimizer steps done, this one included (1-based). */
  step: z.number().int(),
  /** Epoch seconds when the step ended. */
  time: z.number(),
  /** Mean and standard deviation of the reward over the rollouts trained on. */
  reward_mean: z.number(),
  reward_std: z.number(),
  /** Mean reward over every rollout sampled for the step, filtered groups included. */
  reward_all_mean: z.number(),
  /** Mean reward per environment, over every rollout sampled for the step. */
  env_reward: z.record(z.string(), z.number()),
  /**
   * Each environment's part of the batch, by id (env-report.ts): share of the rollouts trained on,
   * groups drawn and kept, reward of its kept rollouts. Absent in runs written before it.
   */
  per_env: z.record(z.string(), EnvStepRow).optional(),
  /** What the difficulty filter did with the groups sampled for this step. */
  groups: z.object({
    drawn: z.number().int(),
    kept: z.number().int(),
    too_easy: z.number().int(),
    too_hard: z.number().int(),
    no_spread: z.number().int(),
    errored: z.number().int(),
    /** Kept by the difficulty filter but rejected by an admission gate ([env.curriculum.gates]). */
    rejected: z.number().int().default(0),
    /** Kept beyond the batch's need, carried to the next batch. */
    surplus: z.number().int(),
    /** Taken from the carry buffer: kept by an earlier batch's round. */
    carried: z.number().int().default(0),
    /** Dropped as staler than max_off_policy_steps (carried groups that aged out, mostly). */
    stale: z.number().int().default(0),
  }),
  /** Rounds of sampling the batch took (more than 1 when filtering refilled it). */
  rounds: z.number().int(),
  /** Rollouts trained on (batch_size) and how many of every sampled one ended with an error. */
  rollouts: z.number().int(),
  errors: z.number().int(),
  /** Prompt and completion tokens over the trained rollouts, and the sampled tokens trained on. */
  tokens: z.object({ prompt: z.number().int(), completion: z.number().int(), trained: z.number().int() }),
  completion_len_mean: z.number(),
  completion_len_max: z.number(),
  turns_mean: z.number(),
  /** Share of trained rollouts whose last turn hit max_tokens. */
  truncated_share: z.number(),
  loss: z.number(),
  entropy: z.number(),
  /** Mean r − log r − 1 between the trainer's and the sampler's token probabilities. */
  mismatch_kl: z.number(),
  /** Share of sampled tokens the ratio band dropped. */
  masked_share: z.number(),
  grad_norm: z.number(),
  learning_rate: z.number(),
  /** Steps between the policy that sampled each trained rollout and the one trained: mean and max. */
  off_policy_mean: z.number(),
  off_policy_max: z.number(),
  /** Rollouts dropped as staler than max_off_policy_steps (prime-rl's off_policy/dropped). */
  off_policy_dropped: z.number().int().default(0),
  /** What the rollout filters flagged and left out of training (absent in rows of older runs). */
  rollout_filters: RolloutFiltersRow.optional(),
  /** Each environment's curriculum by id: rows seen, in each pool, retired; groups its gates rejected. */
  curriculum: z.record(z.string(), EnvCurriculumRow).optional(),
  /**
   * Under [algo] type "opd": the mean over sampled tokens of sampler − teacher logprob, the estimate
   * of the reverse KL from the student to the teacher (falls as the student learns to sample like it).
   */
  teacher_kl: z.number().optional(),
  time_ms: StepTimes,
});
export type TrainRow = z.infer<typeof TrainRow>;

/** One evaluation of one environment. */
export const EvalRow = z.object({
  kind: z.literal("eval"),
  /** The policy evaluated: the weights after this many steps. */
  step: z.number().int(),
  time: z.number(),
  env: z.string(),
  reward_mean: z.number(),
  reward_std: z.number(),
  /** 95% interval of the mean (normal approximation). */
  ci95_low: z.number(),
  ci95_high: z.number(),
  rollouts: z.number().int(),
  time_ms: z.number(),
});
export type EvalRow = z.infer<typeof EvalRow>;

/** A row of metrics.jsonl (an [sft] stage's steps are rows of their own kind: sft-row.ts). */
export const MetricsRow = z.discriminatedUnion("kind", [TrainRow, EvalRow, SftRow]);
export type MetricsRow = z.infer<typeof MetricsRow>;

/** Appends rows to a metrics file. */
export class MetricsLog {
  private writes: Promise<void> = Promise.resolve();

  constructor(readonly path: string) {}

  /** Appends one row; rows are written in call order. */
  append(row: MetricsRow): Promise<void> {
    const line = `${JSON.stringify(row)}\n`;
    this.writes = this.writes.then(() => appendFile(this.path, line));
    return this.writes;
  }

  /** Resolves when every row appended so far is on disk. */
  flush(): Promise<void> {
    return this.writes;
  }
}

/** The rows of a metrics file, and how many lines were not rows (a killed run's partial last line). */
export async function readMetrics(path: string): Promise<{ rows: MetricsRow[]; skipped: number }> {
  const text = await readFile(path, "utf8");
  const rows: MetricsRow[] = [];
  let skipped = 0;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const parsed = MetricsRow.safeParse(parseJson(line));
    if (parsed.success) rows.push(parsed.data);
    else skipped += 1;
  }
  return { rows, skipped };
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined; // not JSON: counted as skipped by the caller
  }
}
