/**
 * What the tests of whole runs share: a tiny run's resolved config in a folder of the test's, the
 * train rows a run wrote (and the numbers of them two equal runs share), and a log that prints nothing.
 */
import { join } from "node:path";
import { type ResolvedTrainConfig, resolveTrainConfig } from "../config/load-train-config.ts";
import { readMetrics, type TrainRow } from "../metrics/metrics-file.ts";
import { tinyRunConfig } from "../testing/index.ts";

/** `tinyRunConfig` resolved, its output_dir `root/name`. */
export function tinyRun(
  root: string,
  name: string,
  overrides: Record<string, unknown> = {},
): ResolvedTrainConfig {
  return resolveTrainConfig({ raw: tinyRunConfig(join(root, name), overrides), where: "test" });
}

/** The train rows of the run in `dir`, in order. */
export async function trainRows(dir: string): Promise<TrainRow[]> {
  const { rows } = await readMetrics(join(dir, "metrics.jsonl"));
  return rows.filter((r): r is TrainRow => r.kind === "train");
}

/** A train row's numbers that must be equal between two runs that saw the same batches and weights. */
export const stepNumbers = (r: TrainRow): unknown[] => [
  r.step,
  r.loss,
  r.entropy,
  r.grad_norm,
  r.reward_mean,
  r.mismatch_kl,
  r.tokens,
];

/** A run's train rows as their `stepNumbers`. */
export async function trainSteps(dir: string): Promise<unknown[][]> {
  return (await trainRows(dir)).map(stepNumbers);
}

/** A run's log that prints nothing. */
export const quiet = (): void => {};
