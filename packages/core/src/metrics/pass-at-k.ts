/**
 * pass@k and pass^k with the unbiased estimators, as verifiers reports them: over the examples that
 * have all their rollouts, for k = 1, 2, 4, ... up to rollouts per example, where a rollout is correct
 * when its reward is at least the threshold.
 *
 * pass@k = 1 − C(n−c, k) / C(n, k): the chance that at least one of k rollouts drawn is correct.
 * pass^k = C(c, k) / C(n, k): the chance that all k are. Both are computed as running products of
 * ratios, never as factorials, so they stay exact enough for any n.
 */
import type { RolloutRecord } from "../records/rollout-record.ts";

/** pass@k of one example with `n` rollouts of which `c` are correct (1 ≤ k ≤ n). */
export function passAtK(n: number, c: number, k: number): number {
  checkCounts(n, c, k);
  if (n - c < k) return 1;
  // C(n−c, k) / C(n, k) = Π_{i=n−c+1..n} (1 − k/i)
  let allWrong = 1;
  for (let i = n - c + 1; i <= n; i++) allWrong *= 1 - k / i;
  return 1 - allWrong;
}

/** pass^k of one example with `n` rollouts of which `c` are correct (1 ≤ k ≤ n). */
export function passAllK(n: number, c: number, k: number): number {
  checkCounts(n, c, k);
  if (c < k) return 0;
  // C(c, k) / C(n, k) = Π_{i=0..k−1} (c−i) / (n−i)
  let allRight = 1;
  for (let i = 0; i < k; i++) allRight *= (c - i) / (n - i);
  return allRight;
}

/** The k values reported for `r` rollouts per example: powers of 2 up to r; none when r ≤ 1. */
export function passKs(r: number): number[] {
  if (r <= 1) return [];
  const ks: number[] = [];
  for (let k = 1; k <= r; k *= 2) ks.push(k);
  return ks;
}

/** How to count: rollouts per example, and the reward that counts as correct. */
export interface PassAtKOptions {
  rolloutsPerExample: number;
  /** Reward at or above which a rollout counts as correct; default 0.5. */
  threshold?: number;
}

/** pass@k and pass^k by k (keys "1", "2", "4", ...), averaged over complete examples. */
export interface PassAtK {
  pass_at_k: Record<string, number>;
  pass_all_k: Record<string, number>;
}

/**
 * pass@k and pass^k of a run. Examples with fewer than `rolloutsPerExample` rows are left out (a
 * partial group would bias the estimate); an example with more uses its first r by rollout index.
 * Empty when r ≤ 1 or no example is complete.
 */
export function computePassAtK(records: readonly RolloutRecord[], options: PassAtKOptions): PassAtK {
  const r = options.rolloutsPerExample;
  const threshold = options.threshold ?? 0.5;
  const ks = passKs(r);
  const result: PassAtK = { pass_at_k: {}, pass_all_k: {} };
  if (ks.length === 0) return result;

  const byExample = new Map<number, RolloutRecord[]>();
  for (const record of records) {
    const group = byExample.get(record.example_id);
    if (group) group.push(record);
    else byExample.set(record.example_id, [record]);
  }
  const correctCounts: number[] = [];
  for (const group of byExample.values()) {
    if (group.length < r) continue;
    const first = [...group].sort((a, b) => a.rollout_index - b.rollout_index).slice(0, r);
    correctCounts.push(first.filter((record) => record.reward >= threshold).length);
  }
  if (correctCounts.length === 0) return result;

  for (const k of ks) {
    const mean = (f: (c: number) => number) =>
      correctCounts.reduce((sum, c) => sum + f(c), 0) / correctCounts.length;
    result.pass_at_k[String(k)] = mean((c) => passAtK(r, c, k));
    result.pass_all_k[String(k)] = mean((c) => passAllK(r, c, k));
  }
  return result;
}

function checkCounts(n: number, c: number, k: number): void {
  if (
    !(
      Number.isInteger(n) &&
      Number.isInteger(c) &&
      Number.isInteger(k) &&
      0 <= c &&
      c <= n &&
      1 <= k &&
      k <= n
    )
  ) {
    throw new RangeError(`pass@k needs integers with 0 ≤ c ≤ n and 1 ≤ k ≤ n; got n=${n}, c=${c}, k=${k}`);
  }
}
