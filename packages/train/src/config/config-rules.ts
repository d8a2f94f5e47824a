/**
 * The rules between keys of a training config, checked before anything starts. Each broken rule is
 * one message naming the keys and their values, then what to do.
 */

import { envSource } from "./env-source.ts";
import type { TrainConfig } from "./train-config.ts";

/** Every rule the config breaks, one message each (empty when it is fine). */
export function checkConfigRules(config: TrainConfig): string[] {
  const problems: string[] = [];
  const { batch_size: batch, rollouts_per_example: group, micro_batch_size: micro } = config;

  if (group < 2) {
    problems.push(
      `rollouts_per_example (${group}) must be at least 2: the advantage is reward minus the group's mean, so a group of one never learns; set it to 4 or 8`,
    );
  }
  if (batch % group !== 0) {
    problems.push(
      `batch_size (${batch}) must be divisible by rollouts_per_example (${group}): set batch_size to ${nearbyMultiples(batch, group)}`,
    );
  }
  if (micro > batch) {
    problems.push(
      `micro_batch_size (${micro}) must not exceed batch_size (${batch}): set micro_batch_size to ${batch} or less`,
    );
  } else if (batch % micro !== 0) {
    problems.push(
      `batch_size (${batch}) must be divisible by micro_batch_size (${micro}): set micro_batch_size to one of ${divisors(batch).join(", ")}`,
    );
  }
  if (config.max_concurrent < group) {
    problems.push(
      `max_concurrent (${config.max_concurrent}) must be at least rollouts_per_example (${group}), so a whole group runs at once: set max_concurrent to ${group} or more`,
    );
  }
  const { max_off_policy_steps: bound, max_async_level: lag } = config;
  if (bound < lag) {
    problems.push(
      `max_off_policy_steps (${bound}) must be at least max_async_level (${lag}): every batch is sampled max_async_level steps before it is trained, so every rollout would be dropped as too stale; set max_off_policy_steps to ${lag} or more, or lower max_async_level`,
    );
  }
  const { easy_threshold: easy, hard_threshold: hard } = config;
  if (easy !== undefined && hard !== undefined && hard >= easy) {
    problems.push(
      `hard_threshold (${hard}) must be below easy_threshold (${easy}): groups at or below hard_threshold are too hard and at or above easy_threshold too easy, so nothing would be kept; e.g. hard_threshold = 0 and easy_threshold = 1`,
    );
  }
  if (config.loss.mask_low >= config.loss.mask_high) {
    problems.push(
      `loss.mask_low (${config.loss.mask_low}) must be below loss.mask_high (${config.loss.mask_high}): the ratio band keeps tokens with mask_low ≤ r ≤ mask_high; e.g. 0.125 and 8`,
    );
  }
  const { optimizer } = config;
  if (optimizer.schedule === "cosine" && optimizer.min_learning_rate > optimizer.learning_rate) {
    problems.push(
      `optimizer.min_learning_rate (${optimizer.min_learning_rate}) exceeds optimizer.learning_rate (${optimizer.learning_rate}): the cosine schedule decays from the peak to the floor; lower min_learning_rate`,
    );
  }
  const model = config.model;
  if (model !== undefined && typeof model !== "string") {
    if (model.d_model % model.n_heads !== 0) {
      problems.push(
        `model.d_model (${model.d_model}) must be divisible by model.n_heads (${model.n_heads}): pick n_heads among ${divisors(model.d_model).join(", ")}`,
      );
    } else if ((model.d_model / model.n_heads) % 2 !== 0) {
      problems.push(
        `model.d_model / model.n_heads (${model.d_model / model.n_heads}) must be even for rotary positions: change n_heads or d_model`,
      );
    }
  }
  const ids = config.env.map((e) => envSource(e).id);
  const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (repeated.length > 0) {
    problems.push(
      `[[env]] lists ${[...new Set(repeated)].map((id) => `"${id}"`).join(", ")} more than once: merge the tables (one id, one set of args)`,
    );
  }
  const unweighted = config.env.filter((e) => e.ratio === undefined).map((e) => `"${envSource(e).id}"`);
  if (unweighted.length > 0 && unweighted.length < config.env.length) {
    problems.push(
      `ratio is set on some [[env]] tables but not on ${unweighted.join(", ")}: set it on every [[env]] (ratio = 1 on each mixes them equally), or on none to mix in proportion to row counts`,
    );
  }
  const evalIds = (config.eval?.env ?? []).map((e) => envSource(e).id);
  const evalRepeated = evalIds.filter((id, i) => evalIds.indexOf(id) !== i);
  if (evalRepeated.length > 0) {
    problems.push(
      `[[eval.env]] lists ${[...new Set(evalRepeated)].map((id) => `"${id}"`).join(", ")} more than once: evaluations are reported by id, so keep one table per environment`,
    );
  }
  return problems;
}

/**
 * What the run will do differently from what the config says, one note each. A warmup longer than
 * the run is shortened to the run rather than refused: a short smoke run (`--max_steps 5`) of a
 * config tuned for hundreds of steps is what people do first.
 */
export function configNotes(config: Pick<TrainConfig, "optimizer" | "max_steps">): string[] {
  const notes: string[] = [];
  const { warmup_steps: warmup } = config.optimizer;
  if (warmup > config.max_steps) {
    notes.push(
      `optimizer.warmup_steps (${warmup}) exceeds max_steps (${config.max_steps}): warming up over all ${config.max_steps} steps instead`,
    );
  }
  return notes;
}

/** The multiples of `step` just below and just above `value`, as "a or b". */
function nearbyMultiples(value: number, step: number): string {
  const below = Math.floor(value / step) * step;
  const above = below + step;
  return below > 0 ? `${below} or ${above}` : `${above}`;
}

/** Divisors of n in increasing order. */
function divisors(n: number): number[] {
  const out: number[] = [];
  for (let d = 1; d <= n; d++) if (n % d === 0) out.push(d);
  return out;
}
