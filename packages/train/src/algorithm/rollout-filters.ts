/**
 * Which rollouts of a kept group are trained on: the `[[filters]]` detectors (gibberish,
 * repetition) look at each rollout's sampled tokens, and with `filter_zero_advantages` a rollout
 * whose advantage is zero is left out. A rollout left out keeps its reward in the group's baseline
 * (the advantages are computed before); only its tokens are not sent to the trainer, and the batch
 * is not refilled. Unlike the difficulty filter (difficulty-filter.ts), which drops whole groups
 * and draws more, this shrinks the batch.
 *
 * Why zero advantages go: the loss is a token mean over the batch's sampled tokens (train-step.ts),
 * so a rollout with advantage 0 adds nothing to the gradient's sum but counts in its denominator,
 * scaling every other token's share down. Without them the step's gradient is the mean over the
 * tokens that carry a learning signal.
 */
import type { RolloutRecord } from "@vf-rl/core/results";
import type { FilterConfig } from "../config/filters-config.ts";
import { gibberishLogprobThreshold, isGibberish } from "./gibberish-filter.ts";
import { isRepetitive } from "./repetition-filter.ts";

/** A detector's name, its config's `type`. */
export type FilterType = FilterConfig["type"];

/** Why a rollout is not trained on. */
export type DropReason = FilterType | "zero_advantage";

/** What the filters decided about one rollout. */
export interface RolloutVerdict {
  /** Each configured detector: whether it flagged the rollout. */
  flagged: Partial<Record<FilterType, boolean>>;
  /**
   * Why it is not trained on: the first enforcing detector (in config order) that flagged it, else
   * "zero_advantage"; null when it is trained on.
   */
  dropped: DropReason | null;
}

/** A detector, ready to run. */
export interface RolloutFilter {
  type: FilterType;
  enforce: boolean;
  /** Whether the sampled tokens (ids_T, logprobs_T, every turn's in order) are flagged. */
  flags: (ids_T: readonly number[], logprobs_T: readonly number[]) => boolean;
}

/** What decides which rollouts of a group are trained on. */
export interface RolloutFilterOptions {
  filters: readonly RolloutFilter[];
  /** Leave out rollouts whose advantage is zero. */
  filterZeroAdvantages: boolean;
}

/** An advantage this close to zero is zero: the float noise of reward − mean (0.1, 0.2, 0.3 → −2.8e-17). */
const ZERO_ADVANTAGE_EPS = 1e-9;

/** The detectors of a config's `[[filters]]`, for a policy of `vocabSize` tokens. */
export function rolloutFilters(configs: readonly FilterConfig[], vocabSize: number): RolloutFilter[] {
  return configs.map((config): RolloutFilter => {
    const { type, enforce } = config;
    if (config.type === "gibberish") {
      const rule = {
        tokenIdThreshold: config.token_id_threshold,
        logprobThreshold: gibberishLogprobThreshold(vocabSize, config.logprob_offset),
      };
      return { type, enforce, flags: (ids_T, logprobs_T) => isGibberish(ids_T, logprobs_T, rule) };
    }
    const rule = { window: config.window, probThreshold: config.prob_threshold };
    return { type, enforce, flags: (_, logprobs_T) => isRepetitive(logprobs_T, rule) };
  });
}

/** The verdict on each rollout of a group whose advantages are `advantages_G`. */
export function judgeRollouts(
  records_G: readonly Pick<RolloutRecord, "trajectory">[],
  advantages_G: readonly number[],
  options: RolloutFilterOptions,
): RolloutVerdict[] {
  return records_G.map((record, g) => {
    const { ids_T, logprobs_T } = sampledTokens(record);
    const flagged: Partial<Record<FilterType, boolean>> = {};
    let dropped: DropReason | null = null;
    for (const filter of options.filters) {
      const hit = filter.flags(ids_T, logprobs_T);
      flagged[filter.type] = hit;
      if (hit && filter.enforce && dropped === null) dropped = filter.type;
    }
    if (
      dropped === null &&
      options.filterZeroAdvantages &&
      Math.abs(advantages_G[g]!) <= ZERO_ADVANTAGE_EPS
    ) {
      dropped = "zero_advantage";
    }
    return { flagged, dropped };
  });
}

/** The tokens a rollout sampled, every turn's completion in order, with the sampler's logprobs. */
export function sampledTokens(record: Pick<RolloutRecord, "trajectory">): {
  ids_T: number[];
  logprobs_T: number[];
} {
  const ids_T: number[] = [];
  const logprobs_T: number[] = [];
  for (const step of record.trajectory) {
    if (step.tokens === null) continue;
    ids_T.push(...step.tokens.completion_ids);
    logprobs_T.push(...step.tokens.completion_logprobs);
  }
  return { ids_T, logprobs_T };
}

/** Per detector, rollouts flagged and dropped; and rollouts left out for a zero advantage. */
export interface RolloutFilterCounts {
  detectors: Partial<Record<FilterType, { detected: number; dropped: number }>>;
  zeroAdvantage: number;
}

/** Sums the verdicts of many rollouts (a batch's). */
export function countVerdicts(verdicts: readonly RolloutVerdict[]): RolloutFilterCounts {
  const counts: RolloutFilterCounts = { detectors: {}, zeroAdvantage: 0 };
  for (const { flagged, dropped } of verdicts) {
    for (const [type, hit] of Object.entries(flagged) as [FilterType, boolean][]) {
      const c = counts.detectors[type] ?? { detected: 0, dropped: 0 };
      counts.detectors[type] = c;
      if (hit) c.detected += 1;
      if (dropped === type) c.dropped += 1;
    }
    if (dropped === "zero_advantage") counts.zeroAdvantage += 1;
  }
  return counts;
}
