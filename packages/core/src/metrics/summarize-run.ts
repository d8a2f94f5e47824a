/**
 * The numbers of a run: the aggregates saved in metadata.json (verifiers' field names) and what the
 * CLI prints under them (reward spread, one reward list per rollout index, per-metric spread,
 * truncation, timing).
 *
 * @example
 * const summary = summarizeRun(records, { rolloutsPerExample: 3 });
 * await writer.writeMetadata({ ...meta, ...summary.aggregates, status: "complete" });
 */

import { type RolloutRecord, RolloutTiming } from "../records/rollout-record.ts";
import type { RunMetadata } from "../records/run-metadata.ts";
import { computePassAtK } from "./pass-at-k.ts";

/** Rollouts per example (for pass@k and the r-lines) and the pass threshold. */
export interface SummarizeOptions {
  rolloutsPerExample: number;
  /** Reward at or above which a rollout counts as correct for pass@k; default 0.5. */
  passThreshold?: number;
}

/** The fields of metadata.json a summary fills in; spread them into the run's metadata. */
export type RunAggregates = Pick<
  RunMetadata,
  | "avg_reward"
  | "avg_metrics"
  | "avg_error"
  | "error_counts"
  | "scoring_error_counts"
  | "stop_conditions"
  | "usage"
  | "pass_at_k"
  | "pass_all_k"
  | "pass_threshold"
>;

/** Mean and population standard deviation (numpy's default, as verifiers prints). */
export interface Spread {
  mean: number;
  std: number;
}

/** Smallest, mean and largest value. */
export interface ValueRange {
  min: number;
  mean: number;
  max: number;
}

/** Phases of `RolloutTiming` summarised (milliseconds). */
export type TimingPhase = Exclude<keyof RolloutTiming, "start_time">;

/** Everything `summarizeRun` works out about a run. */
export interface RunSummary {
  /** For metadata.json: means over all rows; `avg_error` is the share of rows with an error. */
  aggregates: RunAggregates;
  /** Rows summarised. */
  rows: number;
  /** Distinct example ids. */
  examples: number;
  reward: Spread;
  /**
   * `[i]` holds the rewards of rollout i (printed as `r{i+1}: [...]`) across the examples that have it,
   * in example-id order. There are max(r, highest rollout index + 1) lists, so no row is hidden.
   */
  rewardsByRollout: number[][];
  /** Each metric over the rows that report it. */
  metrics: Record<string, Spread>;
  /** Like `rewardsByRollout`, per metric. */
  metricsByRollout: Record<string, number[][]>;
  /** Share of rows whose completion was truncated, with its spread. */
  truncated: Spread;
  /** Per phase over the rows that carry timing; null when none does. */
  timing: Record<TimingPhase, ValueRange> | null;
}

const TIMING_PHASES = RolloutTiming.keyof().exclude(["start_time"]).options;

/**
 * Summarises the rows of a run. `usage` is the mean input and output tokens per rollout over the rows
 * that recorded usage (verifiers' `usage`), `final_*` likewise; it is omitted when no row recorded any.
 * Error counts are by error class name (`error.error`), scoring errors by function name, and stop
 * conditions by name (rows without one are not counted). pass@k: see `computePassAtK`.
 */
export function summarizeRun(records: readonly RolloutRecord[], options: SummarizeOptions): RunSummary {
  const passThreshold = options.passThreshold ?? 0.5;
  const metricValues = new Map<string, number[]>();
  const errorCounts: Record<string, number> = {};
  const scoringErrorCounts: Record<string, number> = {};
  const stopConditions: Record<string, number> = {};
  let errors = 0;
  for (const record of records) {
    for (const [name, value] of Object.entries(record.metrics)) {
      const values = metricValues.get(name);
      if (values) values.push(value);
      else metricValues.set(name, [value]);
    }
    if (record.error) {
      errors++;
      increment(errorCounts, record.error.error);
    }
    for (const scoring of record.scoring_errors) increment(scoringErrorCounts, scoring.function);
    if (record.stop_condition !== null) increment(stopConditions, record.stop_condition);
  }

  const reward = spread(records.map((record) => record.reward));
  const metrics = Object.fromEntries([...metricValues].map(([name, values]) => [name, spread(values)]));
  const aggregates: RunAggregates = {
    avg_reward: reward.mean,
    avg_metrics: Object.fromEntries(Object.entries(metrics).map(([name, s]) => [name, s.mean])),
    avg_error: records.length === 0 ? 0 : errors / records.length,
    error_counts: errorCounts,
    scoring_error_counts: scoringErrorCounts,
    stop_conditions: stopConditions,
    ...computePassAtK(records, { rolloutsPerExample: options.rolloutsPerExample, threshold: passThreshold }),
    pass_threshold: passThreshold,
  };
  const usage = usageOf(records);
  if (usage) aggregates.usage = usage;

  const byRollout = rolloutTable(records, options.rolloutsPerExample);
  return {
    aggregates,
    rows: records.length,
    examples: new Set(records.map((record) => record.example_id)).size,
    reward,
    rewardsByRollout: byRollout((record) => record.reward),
    metrics,
    metricsByRollout: Object.fromEntries(
      [...metricValues.keys()].map((name) => [name, byRollout((record) => record.metrics[name])]),
    ),
    truncated: spread(records.map((record) => (record.is_truncated ? 1 : 0))),
    timing: timingOf(records),
  };
}

// A function that lays a per-row value out as one list per rollout index, each in example order.
function rolloutTable(records: readonly RolloutRecord[], r: number) {
  const sorted = [...records].sort(
    (a, b) => a.example_id - b.example_id || a.rollout_index - b.rollout_index,
  );
  const width = sorted.reduce((w, record) => Math.max(w, record.rollout_index + 1), r);
  return (value: (record: RolloutRecord) => number | undefined): number[][] => {
    const table: number[][] = Array.from({ length: width }, () => []);
    for (const record of sorted) {
      const v = value(record);
      if (v !== undefined && record.rollout_index >= 0) table[record.rollout_index]!.push(v);
    }
    return table;
  };
}

function usageOf(records: readonly RolloutRecord[]): RunAggregates["usage"] {
  const usages = records.flatMap((record) => (record.token_usage ? [record.token_usage] : []));
  if (usages.length === 0) return undefined;
  const usage: NonNullable<RunAggregates["usage"]> = {
    input_tokens: mean(usages.map((u) => u.input_tokens)),
    output_tokens: mean(usages.map((u) => u.output_tokens)),
  };
  const finalInput = usages.flatMap((u) =>
    u.final_input_tokens === undefined ? [] : [u.final_input_tokens],
  );
  const finalOutput = usages.flatMap((u) =>
    u.final_output_tokens === undefined ? [] : [u.final_output_tokens],
  );
  if (finalInput.length > 0) usage.final_input_tokens = mean(finalInput);
  if (finalOutput.length > 0) usage.final_output_tokens = mean(finalOutput);
  return usage;
}

function timingOf(records: readonly RolloutRecord[]): Record<TimingPhase, ValueRange> | null {
  const timings = records.flatMap((record) => (record.timing ? [record.timing] : []));
  if (timings.length === 0) return null;
  const out = {} as Record<TimingPhase, ValueRange>;
  for (const phase of TIMING_PHASES) {
    const values = timings.map((t) => t[phase]);
    // reduce, not Math.min(...values): spreading a large run's rows would overflow the stack
    const min = values.reduce((a, b) => Math.min(a, b));
    const max = values.reduce((a, b) => Math.max(a, b));
    out[phase] = { min, mean: mean(values), max };
  }
  return out;
}

function spread(values: number[]): Spread {
  if (values.length === 0) return { mean: 0, std: 0 };
  const m = mean(values);
  return { mean: m, std: Math.sqrt(mean(values.map((v) => (v - m) ** 2))) };
}

function mean(values: number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, v) => sum + v, 0) / values.length;
}

function increment(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}
