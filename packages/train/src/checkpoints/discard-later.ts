/**
 * What a resumed run drops before it goes on from step N: the checkpoints and policy weights of
 * later steps (`--resume-step` to an older checkpoint, or steps a killed run did after its last
 * checkpoint). They describe a future the resumed run replaces; left in place, a later checkpoint
 * would count among the newest for keep_last and `vf eval RUN_DIR` would pick stale weights.
 * metrics.jsonl is put back by the resume itself, from the checkpoint's copy.
 */
import { existsSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import { readMetrics } from "../metrics/metrics-file.ts";
import type { RunLayout } from "../run-layout.ts";
import { checkpointSteps } from "./run-checkpoint.ts";

/** Deletes the checkpoints and weights after `step`; returns the line that says what was dropped, if anything. */
export async function discardAfter(layout: RunLayout, step: number): Promise<string[]> {
  const checkpoints = (await checkpointSteps(layout)).filter((s) => s > step);
  for (const s of checkpoints) await rm(layout.checkpoint(s), { recursive: true, force: true });
  for (const name of await readdir(layout.weightsDir).catch(() => [] as string[])) {
    const version = Number(/^step_(\d+)$/.exec(name)?.[1] ?? Number.NaN);
    if (version > step) await rm(layout.weights(version), { recursive: true, force: true });
  }
  const { rows } = existsSync(layout.metricsFile) ? await readMetrics(layout.metricsFile) : { rows: [] };
  const steps = rows.filter((r) => r.kind === "train" && r.step > step).length;
  if (checkpoints.length === 0 && steps === 0) return [];
  const what = [
    ...(checkpoints.length > 0 ? [`the checkpoints of step ${checkpoints.join(", ")}`] : []),
    ...(steps > 0 ? [`${steps} step${steps === 1 ? "" : "s"} of metrics`] : []),
  ];
  return [`going back to step ${step}: discarded ${what.join(" and ")} written after it`];
}
