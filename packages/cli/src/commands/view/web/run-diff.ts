/**
 * Two runs compared example by example (rows keyed by `example_id`, as groups are): each example's
 * mean reward over its rollouts in either run and the change, which examples got better or worse,
 * and the mean change over the examples both ran.
 */
import type { LoadedRun } from "@vf-rl/core/results";

/** One example in either run; a side is null where that run has no rollout of it. */
export interface ExampleChange {
  exampleId: number;
  before: number | null;
  after: number | null;
  /** after - before; null unless both ran it. */
  change: number | null;
}

export interface RunDiff {
  /** Worse first (largest drop), then unchanged, then better; examples of one run only last. */
  examples: ExampleChange[];
  better: number;
  worse: number;
  same: number;
  /** Mean of the changes over examples both runs hold; null when they share none. */
  meanChange: number | null;
}

/** Changes smaller than this are float noise, not a change. */
const EPSILON = 1e-9;

export function diffRuns(before: LoadedRun, after: LoadedRun): RunDiff {
  const a = meanByExample(before);
  const b = meanByExample(after);
  const ids = [...new Set([...a.keys(), ...b.keys()])];
  const examples = ids.map((exampleId): ExampleChange => {
    const x = a.get(exampleId) ?? null;
    const y = b.get(exampleId) ?? null;
    return { exampleId, before: x, after: y, change: x !== null && y !== null ? y - x : null };
  });
  examples.sort(
    (p, q) =>
      (p.change === null ? 1 : 0) - (q.change === null ? 1 : 0) ||
      (p.change ?? 0) - (q.change ?? 0) ||
      p.exampleId - q.exampleId,
  );
  const changes = examples.flatMap((e) => (e.change === null ? [] : [e.change]));
  return {
    examples,
    better: changes.filter((c) => c > EPSILON).length,
    worse: changes.filter((c) => c < -EPSILON).length,
    same: changes.filter((c) => Math.abs(c) <= EPSILON).length,
    meanChange: changes.length ? changes.reduce((s, c) => s + c, 0) / changes.length : null,
  };
}

/** Whether a change counts as better (1), worse (-1) or the same (0). */
export function direction(change: number): -1 | 0 | 1 {
  return change > EPSILON ? 1 : change < -EPSILON ? -1 : 0;
}

function meanByExample(run: LoadedRun): Map<number, number> {
  const sums = new Map<number, { sum: number; n: number }>();
  for (const record of run.records) {
    const s = sums.get(record.example_id) ?? { sum: 0, n: 0 };
    sums.set(record.example_id, { sum: s.sum + record.reward, n: s.n + 1 });
  }
  return new Map([...sums].map(([id, s]) => [id, s.sum / s.n]));
}
