// A run of several environments: prompts drawn by each [[env]]'s ratio, whatever the row counts,
// and each environment's part of every step reported (metrics row, console sub-line, reward curve).
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveTrainConfig } from "../config/load-train-config.ts";
import type { MetricsRow, TrainRow } from "../metrics/metrics-file.ts";
import { CONSONANTS_ENV, tinyRunConfig, VOWELS_ENV } from "../testing/index.ts";
import { runTraining } from "./run-training.ts";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "vf-mix-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe("a run of two environments mixed 3:1 by ratio", () => {
  it("draws about three prompts of the first for one of the second, though it has a third of the rows", async () => {
    const config = resolveTrainConfig({
      raw: tinyRunConfig(join(root, "mixed"), {
        max_steps: 3,
        batch_size: 32,
        rollouts_per_example: 2,
        env: [
          { id: VOWELS_ENV, args: { rows: 4 }, ratio: 3 },
          { id: CONSONANTS_ENV, args: { rows: 12 }, ratio: 1 },
        ],
      }),
      where: "test",
    });
    const rows: MetricsRow[] = [];
    const lines: string[] = [];
    const result = await runTraining({
      config,
      log: (line) => lines.push(line),
      onRow: (row) => rows.push(row),
    });
    const train = rows.filter((r): r is TrainRow => r.kind === "train");
    expect(train).toHaveLength(3);

    const drawn = (env: string) => train.reduce((n, r) => n + r.per_env![env]!.drawn, 0);
    const share = drawn("vowels") / (drawn("vowels") + drawn("consonants"));
    expect(share).toBeGreaterThan(0.62); // row counts alone would give 0.25
    expect(share).toBeLessThan(0.88);

    for (const row of train) {
      const envs = Object.values(row.per_env!);
      expect(envs.reduce((n, e) => n + e.kept, 0)).toBe(row.groups.kept);
      expect(envs.reduce((n, e) => n + e.drawn, 0)).toBe(row.groups.drawn);
      expect(envs.reduce((s, e) => s + e.share, 0)).toBeCloseTo(1);
      for (const e of envs) if (e.kept > 0) expect(e.reward).toBeGreaterThanOrEqual(0);
    }
    // each step line is followed by one sub-line per environment
    const step1 = lines.findIndex((l) => l.startsWith("step 1/3 "));
    expect(lines[step1 + 1]).toMatch(
      /^ {2}╰─ vowels {5}\| share \d+\.\d% \| groups \d+\/\d+ \| reward [\d.]+ \(all [\d.]+\)$/,
    );
    expect(lines[step1 + 2]).toMatch(/^ {2}╰─ consonants \| share \d+\.\d% \| groups \d+\/\d+ \| reward/);

    const svg = await readFile(result.curve.svg, "utf8");
    expect(svg).toContain("train vowels");
    expect(svg).toContain("train consonants");
  });
});
