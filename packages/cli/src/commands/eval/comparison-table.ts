/**
 * The table that ends a `vf eval` of several evaluations (a config's [[eval]] blocks, an ablation
 * sweep): one row per evaluation with its mean reward and 95% interval, pass@1 and pass@k, tokens
 * and errors, so the cells of a sweep compare at a glance.
 */
import type { RolloutRecord, RunMetadata } from "@vf-rl/core/results";

/** One finished evaluation: what it was and what came out. */
export interface ComparedRun {
  envId: string;
  /** What sets it apart (a sweep's values or the block's name). */
  label?: string;
  metadata: RunMetadata;
  records: RolloutRecord[];
}

/** A mean and the half-width of its 95% interval. */
export interface Interval {
  mean: number;
  halfWidth: number;
}

/**
 * The mean reward with a 95% t-interval over examples: a row's rollouts share its prompt and are
 * not independent, so each example's mean reward is one observation.
 */
export function rewardInterval(records: readonly RolloutRecord[]): Interval {
  const byExample = new Map<string, number[]>();
  for (const record of records) {
    const key = `${String(record.info.env_id ?? "")}:${record.example_id}`;
    byExample.set(key, [...(byExample.get(key) ?? []), record.reward]);
  }
  const means = [...byExample.values()].map((rewards) => rewards.reduce((a, b) => a + b, 0) / rewards.length);
  const n = means.length;
  if (n === 0) return { mean: Number.NaN, halfWidth: Number.NaN };
  const mean = means.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { mean, halfWidth: Number.NaN };
  const variance = means.reduce((sum, m) => sum + (m - mean) ** 2, 0) / (n - 1);
  return { mean, halfWidth: tQuantile975(n - 1) * Math.sqrt(variance / n) };
}

/** Lines of the table, headed "--- Comparison ---". */
export function formatComparison(runs: readonly ComparedRun[]): string[] {
  const ks = [...new Set(runs.flatMap((run) => Object.keys(run.metadata.pass_at_k)))]
    .map(Number)
    .sort((a, b) => a - b);
  const shownKs = ks.length > 1 ? [ks[0]!, ks.at(-1)!] : ks;
  const header = [
    "environment",
    "setting",
    "model",
    "reward (95% CI)",
    ...shownKs.map((k) => `pass@${k}`),
    "tokens out",
    "errors",
  ];
  const rows = runs.map((run) => {
    const { mean, halfWidth } = rewardInterval(run.records);
    const errors = run.records.filter((r) => r.error !== null).length;
    return [
      run.envId,
      clip(run.label ?? "-", 40),
      clip(run.metadata.model, 24),
      Number.isNaN(halfWidth) ? num(mean) : `${num(mean)} ± ${num(halfWidth)}`,
      ...shownKs.map((k) => {
        const value = run.metadata.pass_at_k[String(k)];
        return value === undefined ? "-" : num(value);
      }),
      String(Math.round(run.metadata.usage?.output_tokens ?? 0)),
      `${errors}/${run.records.length}`,
    ];
  });
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return ["--- Comparison ---", line(header), ...rows.map(line)];
}

function num(value: number): string {
  return Number.isNaN(value) ? "-" : value.toFixed(3);
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

// Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom; past 30 the normal's 1.96
// is within 2%.
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

function tQuantile975(df: number): number {
  return T975[df - 1] ?? 1.96;
}
