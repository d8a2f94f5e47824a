/**
 * Each environment's part of a step, for runs of several: its share of the rollouts trained on, the
 * groups drawn from it and kept, and the reward of its kept rollouts (prime-rl's `batch/<env>` and
 * per-env sub-lines). The step's metrics row keeps them as `per_env` (by environment id), the
 * console shows one sub-line per environment, and the reward curve one training line each.
 */
import { z } from "zod";
import { meanStd } from "../algorithm/advantages.ts";
import type { CollectedBatch, TrainEnv } from "../rollouts/collect-batch.ts";

/** One environment's part of a step's batch. */
export const EnvStepRow = z.object({
  /** Its share of the rollouts trained on (0 to 1). */
  share: z.number(),
  /** Groups drawn from it for this batch. */
  drawn: z.number().int(),
  /** Its groups in the batch trained on (groups carried from an earlier round included). */
  kept: z.number().int(),
  /** Mean reward of its rollouts trained on; absent when none were. */
  reward: z.number().optional(),
});
export type EnvStepRow = z.infer<typeof EnvStepRow>;

/** Each environment's part of `batch`, by id. */
export function envStepRows(batch: CollectedBatch, envs_E: readonly TrainEnv[]): Record<string, EnvStepRow> {
  const trained = batch.groups_P.reduce((n, g) => n + g.records_G.length, 0);
  const rows: Record<string, EnvStepRow> = {};
  envs_E.forEach(({ id }, envIndex) => {
    const groups_P = batch.groups_P.filter((g) => g.envIndex === envIndex);
    const rewards = groups_P.flatMap((g) => g.records_G.map((r) => r.reward));
    rows[id] = {
      share: trained > 0 ? rewards.length / trained : 0,
      drawn: batch.drawn_E[envIndex] ?? 0,
      kept: groups_P.length,
      ...(rewards.length > 0 ? { reward: meanStd(rewards).mean } : {}),
    };
  });
  return rows;
}

/**
 * One console sub-line per environment when a step drew from several, e.g.
 * `  ╰─ vowels     | share 75.0% | groups 6/8 | reward 0.512 (all 0.480)`; none for one environment.
 */
export function formatEnvLines(
  perEnv: Readonly<Record<string, EnvStepRow>>,
  envReward: Readonly<Record<string, number>>,
): string[] {
  const ids = Object.keys(perEnv);
  if (ids.length < 2) return [];
  const width = Math.max(...ids.map((id) => id.length));
  return ids.map((id) => {
    const e = perEnv[id]!;
    const all = envReward[id];
    return [
      `  ╰─ ${id.padEnd(width)}`,
      `share ${(e.share * 100).toFixed(1)}%`,
      `groups ${e.kept}/${e.drawn}`,
      `reward ${e.reward === undefined ? "-" : e.reward.toFixed(3)}${all === undefined ? "" : ` (all ${all.toFixed(3)})`}`,
    ].join(" | ");
  });
}
