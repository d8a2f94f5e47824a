// Rollout filters in whole runs (tiny fresh model, real engine): [[filters]] that count or drop
// degenerate rollouts, and filter_zero_advantages. Each comparison is of two runs whose batches are
// sampled alike (seeded, from policy 0), so what differs is what the filters left out.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { UserError } from "@vf-rl/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ResolvedTrainConfig, resolveTrainConfig } from "../config/load-train-config.ts";
import type { MetricsRow, TrainRow } from "../metrics/metrics-file.ts";
import { tinyRunConfig } from "../testing/index.ts";
import { runTraining } from "./run-training.ts";

/** Rollout i of every group scores [0, 0.5, 0.5, 1][i]: in groups of 4, two rollouts have advantage 0. */
const SCRIPTED_REWARDS_ENV = fileURLToPath(new URL("../testing/envs/scripted-rewards", import.meta.url));

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "vf-filters-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));

function config(name: string, overrides: Record<string, unknown>): ResolvedTrainConfig {
  return resolveTrainConfig({
    raw: tinyRunConfig(join(root, name), { max_steps: 2, ...overrides }),
    where: "test",
  });
}

async function run(name: string, overrides: Record<string, unknown>) {
  const rows: TrainRow[] = [];
  const lines: string[] = [];
  await runTraining({
    config: config(name, overrides),
    log: (line) => lines.push(line),
    onRow: (row: MetricsRow) => {
      if (row.kind === "train") rows.push(row);
    },
  });
  return { rows, lines };
}

describe("rollout filters in a run", () => {
  it("leave what an enforced filter flags out of training, count what a watching one flags, and say so", async () => {
    const plain = await run("plain", {});
    const filtered = await run("filtered", {
      filters: [
        // a fresh model samples every token at p ≈ 1/263, below e/263 (offset −1): any of the 12
        // highest ids (5 non-ASCII bytes, the special tokens) flags its rollout
        { type: "gibberish", token_id_threshold: 250, logprob_offset: -1, enforce: true },
        // and every token is "near-certain" above p = 0.002: six in a row flag it, only counted
        { type: "repetition", window: 6, prob_threshold: 0.002 },
      ],
    });
    for (const [p, f] of plain.rows.map((row, i) => [row, filtered.rows[i]!] as const)) {
      expect(f.tokens.completion).toBe(p.tokens.completion); // the same rollouts were sampled
      expect(f.reward_mean).toBe(p.reward_mean); // their rewards all count
      const { gibberish, repetition } = f.rollout_filters!;
      expect(gibberish!.detected).toBeGreaterThan(0);
      expect(gibberish!.detected).toBeLessThan(16);
      expect(gibberish!.dropped).toBe(gibberish!.detected);
      expect(repetition).toEqual({ detected: expect.any(Number), dropped: 0 });
      expect(repetition!.detected).toBeGreaterThan(0);
      // every dropped rollout's sampled tokens are gone from the step
      expect(f.tokens.trained).toBeLessThanOrEqual(p.tokens.trained - gibberish!.dropped);
      expect(p.rollout_filters).toEqual({ zero_advantage: 0 });
    }
    const first = filtered.rows[0]!.rollout_filters!;
    expect(filtered.lines.find((l) => l.startsWith("step 1/2"))).toContain(
      `filters: gibberish ${first.gibberish!.detected} flagged (${first.gibberish!.dropped} dropped), repetition ${first.repetition!.detected} flagged`,
    );
    expect(plain.lines.find((l) => l.startsWith("step 1/2"))).not.toContain("filters:");
  });

  it("do not train on rollouts whose advantage is zero (filter_zero_advantages, on by default)", async () => {
    const env = [{ id: SCRIPTED_REWARDS_ENV }];
    const kept = await run("zero-kept", { env, filter_zero_advantages: false, max_steps: 1 });
    const removed = await run("zero-removed", { env, max_steps: 1 });
    const [k, r] = [kept.rows[0]!, removed.rows[0]!];
    expect(r.rollout_filters!.zero_advantage).toBe(8); // 2 of each of the 4 groups
    expect(k.rollout_filters!.zero_advantage).toBe(0);
    expect(r.tokens.completion).toBe(k.tokens.completion);
    expect(r.tokens.trained).toBeLessThan(k.tokens.trained);
    // the loss is a token mean: the same signal over fewer tokens, so a gradient larger by N_all / N_kept
    const scale = k.tokens.trained / r.tokens.trained;
    expect(r.loss / k.loss).toBeCloseTo(scale, 4);
    expect(r.grad_norm / k.grad_norm).toBeCloseTo(scale, 4);
    expect(removed.lines.find((l) => l.startsWith("step 1/1"))).toContain("zero-advantage 8 dropped");
  });

  it("stop the run, saying what to do, when they leave a batch nothing to train on", async () => {
    const everything = { type: "gibberish", token_id_threshold: 0, logprob_offset: -6, enforce: true };
    const error = await runTraining({
      config: config("nothing-left", { filters: [everything] }),
      log: () => {},
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(
      /^the rollout filters left batch 1 nothing to train on \(16 gibberish\): .*set enforce = false in \[\[filters\]\]/,
    );
  });
});
