// [[eval.env]]: an environment evaluated while training (prime-rl's eval.source[]) instead of the
// training environments' eval splits, with its own rows and rollouts, and never trained on.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveTrainConfig } from "../config/load-train-config.ts";
import type { EvalRow, MetricsRow, TrainRow } from "../metrics/metrics-file.ts";
import { CONSONANTS_ENV, tinyRunConfig } from "../testing/index.ts";
import { runTraining } from "./run-training.ts";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "vf-eval-sources-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe("an eval-only environment", () => {
  it("is evaluated and reported at the eval steps, and not trained on", async () => {
    const config = resolveTrainConfig({
      raw: tinyRunConfig(join(root, "eval-only"), {
        max_steps: 3,
        eval: {
          interval: 2,
          num_examples: 4,
          env: [{ id: CONSONANTS_ENV, num_examples: 3, rollouts_per_example: 2 }],
        },
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

    const evals = rows.filter((r): r is EvalRow => r.kind === "eval");
    // consonants only (not vowels' own eval split), its 3 rows × 2 rollouts, before, every 2 steps and at the end
    expect(evals.map((r) => [r.step, r.env, r.rollouts])).toEqual([
      [0, "consonants", 6],
      [2, "consonants", 6],
      [3, "consonants", 6],
    ]);
    expect(lines).toContainEqual(expect.stringMatching(/^eval @ step 2 \| consonants [\d.]+ \[/));
    const train = rows.filter((r): r is TrainRow => r.kind === "train");
    expect(train).toHaveLength(3);
    for (const row of train) {
      expect(Object.keys(row.env_reward)).toEqual(["vowels"]);
      expect(Object.keys(row.per_env!)).toEqual(["vowels"]);
    }
    const svg = await readFile(result.curve.svg, "utf8");
    expect(svg).toContain("eval consonants (95% CI)");
    expect(await readFile(result.curve.html, "utf8")).toContain("<td>consonants</td>");
  });
});
