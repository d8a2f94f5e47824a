import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SystemError, UserError } from "@vf-rl/core";
import { startEngineServer } from "@vf-rl/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkpointSteps } from "../checkpoints/run-checkpoint.ts";
import type { ResolvedTrainConfig } from "../config/load-train-config.ts";
import type { MetricsRow, TrainRow } from "../metrics/metrics-file.ts";
import { RunLayout } from "../run-layout.ts";
import { VOWELS_ENV, writeTinyModel } from "../testing/index.ts";
import { quiet, stepNumbers, tinyRun, trainRows } from "./run-test-support.ts";
import { runTraining } from "./run-training.ts";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "vf-run-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const config = (name: string, overrides: Record<string, unknown> = {}): ResolvedTrainConfig =>
  tinyRun(root, name, overrides);

/** What must be equal between two runs that saw the same batches and weights, the draws included. */
const drawNumbers = (r: TrainRow) => [...stepNumbers(r), r.groups, r.off_policy_max, r.curriculum];

/**
 * vowels with 4 of its 16 rows solved whatever is written, drawn by a difficulty pool that retires
 * solved rows, and a gate rejecting groups whose advantages are all within ±0.05.
 */
const CURRICULUM_ENV = {
  id: VOWELS_ENV,
  args: { solved: 4 },
  curriculum: {
    sampler: {
      type: "difficulty_pool",
      pools: {
        hard: { threshold: 0.25, weight: 0.5 },
        normal: { threshold: 0.75, weight: 1 },
        easy: { threshold: 1, weight: 0 },
      },
    },
    gates: { narrow: { type: "advantage_range", reject_min: -0.05, reject_max: 0.05 } },
  },
};

describe("a training run", () => {
  it.each([
    ["max_async_level 1", { max_async_level: 1 }],
    ["max_async_level 2", { max_async_level: 2 }],
    // 6 groups drawn for 4, then 3 for 2, ...: groups wait in the carry buffer across the checkpoint
    ["groups carried over", { max_async_level: 1, oversampling_factor: 1.5 }],
    // the pool's generator and every row's latest reward are in the checkpoint
    ["a difficulty pool and a gate", { max_async_level: 1, env: [CURRICULUM_ENV] }],
  ])(
    "resumed from a checkpoint (%s) takes exactly the steps of a run never stopped",
    async (name, overrides) => {
      const settings = { ...overrides, checkpoints: { interval: 0 } };
      const unbroken = await runTraining({ config: config(`unbroken-${name}`, settings), log: quiet });
      expect(unbroken).toMatchObject({ steps: 4, interrupted: false });

      const stop = new AbortController();
      const broken = config(`broken-${name}`, settings);
      const first = await runTraining({
        config: broken,
        signal: stop.signal,
        log: quiet,
        onRow: (row) => {
          if (row.kind === "train" && row.step === 2) stop.abort(); // as Ctrl-C after step 2
        },
      });
      expect(first).toMatchObject({ steps: 2, interrupted: true });
      const layout = new RunLayout(broken.output_dir);
      expect(await checkpointSteps(layout)).toEqual([2]);
      const progress = JSON.parse(await readFile(join(layout.checkpoint(2), "progress.json"), "utf8"));
      expect(progress.carry.length > 0).toBe("oversampling_factor" in overrides);
      expect(progress.source.rows[0].type).toBe("env" in overrides ? "difficulty_pool" : "standard");
      const second = await runTraining({ config: broken, resume: true, log: quiet });
      expect(second).toMatchObject({ steps: 4, interrupted: false });

      const expected = (await trainRows(unbroken.runDir)).map(drawNumbers);
      const resumed = (await trainRows(broken.output_dir)).map(drawNumbers);
      expect(resumed).toEqual(expected); // every step once, the resumed ones equal to the unbroken ones
      expect(expected[2]![1]).not.toBe(expected[1]![1]);
    },
  );

  it("reports each step: rewards, filter counts, tokens, losses, staleness and time", async () => {
    const rows: MetricsRow[] = [];
    const lines: string[] = [];
    const result = await runTraining({
      config: config("report", { eval: { interval: 2, num_examples: 4 }, max_steps: 3 }),
      log: (line) => lines.push(line),
      onRow: (row) => rows.push(row),
    });
    const train = rows.filter((r): r is TrainRow => r.kind === "train");
    expect(train.map((r) => r.step)).toEqual([1, 2, 3]);
    for (const row of train) {
      expect(row.rollouts).toBe(16);
      expect(row.groups.kept).toBe(4);
      expect(row.tokens.trained).toBeGreaterThan(0);
      expect(row.time_ms.step).toBeGreaterThan(0);
    }
    expect(train.map((r) => r.off_policy_max)).toEqual([0, 1, 1]); // batch 1 was sampled by policy 0
    expect(train[0]!.mismatch_kl).toBe(0); // sampler and trainer agree bit for bit on fresh samples
    const evals = rows.filter((r) => r.kind === "eval").map((r) => r.step);
    expect(evals).toEqual([0, 2, 3]);
    expect(
      lines.some((l) => /^step 2\/3 \| reward [\d.]+ ± [\d.]+ \(all [\d.]+\) \| groups 4\/\d+/.test(l)),
    ).toBe(true);
    expect(lines.at(-1)).toMatch(
      /^done after 3 steps \| checkpoint .*step_3 \| reward curve .*reward-curve\.html$/,
    );
    const svg = await readFile(result.curve.svg, "utf8");
    expect(svg).toContain("train reward");
    expect(svg).toContain("eval vowels");
  });

  it("carries the groups a round keeps beyond its batch to the next batch, which draws fewer prompts", async () => {
    const lines: string[] = [];
    const result = await runTraining({
      config: config("carry", { oversampling_factor: 2 }),
      log: (line) => lines.push(line),
    });
    const train = await trainRows(result.runDir);
    // 8 groups drawn for the 4 a batch needs, one of them flat: the other 3 are the next batch's,
    // which draws 2 for the one it still needs (without the carry buffer every step draws 8)
    expect(train.map((r) => r.groups.drawn)).toEqual([8, 2, 8, 2]);
    expect(train.map((r) => r.groups.carried)).toEqual([0, 3, 0, 3]);
    expect(train.map((r) => r.rollouts)).toEqual([16, 16, 16, 16]);
    // batch 2 (sampled by policy 1) waits a step: trained at step 3, two steps stale, within the default bound 8
    expect(train.map((r) => r.off_policy_max)).toEqual([0, 1, 1, 2]);
    expect(train.map((r) => r.off_policy_dropped)).toEqual([0, 0, 0, 0]);
    expect(lines.some((l) => /^step 2\/4 \| .* \| groups 4\/5 \(1 flat, 3 carried\) \|/.test(l))).toBe(true);
  });

  it("drops the carried groups older than max_off_policy_steps, counts them and draws anew", async () => {
    const lines: string[] = [];
    const result = await runTraining({
      config: config("bounded", { oversampling_factor: 2, max_off_policy_steps: 1 }),
      log: (line) => lines.push(line),
    });
    const train = await trainRows(result.runDir);
    // batch 0's carried groups train at step 1 (one step stale); batch 2's would be two at step 3
    expect(train.map((r) => r.groups.carried)).toEqual([0, 3, 0, 0]);
    expect(train.map((r) => r.groups.stale)).toEqual([0, 0, 0, 3]);
    expect(train.map((r) => r.off_policy_dropped)).toEqual([0, 0, 0, 12]);
    expect(train.map((r) => r.groups.drawn)).toEqual([8, 2, 8, 8]);
    expect(Math.max(...train.map((r) => r.off_policy_max))).toBe(1); // never past the bound
    expect(train.map((r) => r.rollouts)).toEqual([16, 16, 16, 16]);
    expect(
      lines.some((l) =>
        /^step 4\/4 \| .* \| off-policy 1 \(stale: 3 groups, 12 rollouts dropped\) \|/.test(l),
      ),
    ).toBe(true);
  });

  it("reports each environment's curriculum per step: rows seen, in each pool, retired, and groups each gate rejected", async () => {
    const lines: string[] = [];
    const result = await runTraining({
      config: config("curriculum", { max_steps: 3, env: [CURRICULUM_ENV] }),
      log: (line) => lines.push(line),
    });
    const train = await trainRows(result.runDir);
    const vowels = train.map((r) => r.curriculum?.vowels);
    for (const [s, c] of vowels.entries()) {
      expect(c?.rows).toBe(16);
      expect(Object.values(c!.pools).reduce((a, b) => a + b, 0)).toBe(c!.seen); // every scored row is in a pool
      expect(c!.retired).toBe(c!.pools.easy);
      expect(train[s]!.groups.rejected).toBe(c!.rejected.narrow);
    }
    expect(vowels.at(-1)!.retired).toBeGreaterThan(0); // solved rows were seen, and retired
    expect(train.some((r) => r.groups.rejected > 0)).toBe(true);
    const last = vowels.at(-1)!;
    const line = lines.find((l) => l.startsWith("step 3/3"))!;
    expect(line).toContain(
      `| curriculum vowels ${last.seen}/16 rows seen (hard ${last.pools.hard}, normal ${last.pools.normal}, easy ${last.pools.easy}: ${last.retired} retired), gate narrow rejected ${last.rejected.narrow} |`,
    );
  });

  it("samples from an external inference server, loading each step's weights through POST /update_weights", async () => {
    const loaded: string[] = [];
    const server = await startEngineServer({
      checkpoint: await writeTinyModel(join(root, "served"), { seed: 9 }),
      modelName: "served",
      log: (line) => loaded.push(line),
    });
    try {
      const result = await runTraining({
        config: config("external", { max_steps: 3, inference: { url: server.url } }),
        log: quiet,
      });
      expect(result.steps).toBe(3);
    } finally {
      await server.close();
    }
    // policy 0 before the first batch, then each policy its batch is sampled with (one step behind)
    expect(loaded.map((line) => line.replace(/ from .*\/weights\//, " "))).toEqual([
      "loaded weights step_0",
      "loaded weights step_1",
    ]);
  });

  it("keeps only the policy weights the run can still load (max_async_level 2: the last three)", async () => {
    const run = config("pruned", { max_async_level: 2 });
    await mkdir(join(run.output_dir, "weights", "step_99999"), { recursive: true }); // newer: left alone
    const result = await runTraining({ config: run, log: quiet });
    expect(result.steps).toBe(4);
    // batch 4 would be sampled by policy 2: policies 0 and 1 are never loaded again
    expect((await readdir(join(run.output_dir, "weights"))).sort()).toEqual([
      "step_2",
      "step_3",
      "step_4",
      "step_99999",
    ]);
  });

  it("shortens a warmup longer than the run to the run, and says so", async () => {
    const lines: string[] = [];
    const rows: MetricsRow[] = [];
    const short = config("short", { max_steps: 2, optimizer: { learning_rate: 3e-3, warmup_steps: 10 } });
    const result = await runTraining({
      config: short,
      log: (line) => lines.push(line),
      onRow: (r) => rows.push(r),
    });
    expect(result.steps).toBe(2);
    expect(lines).toContain(
      "note: optimizer.warmup_steps (10) exceeds max_steps (2): warming up over all 2 steps instead",
    );
    const rates = rows.filter((r): r is TrainRow => r.kind === "train").map((r) => r.learning_rate);
    expect(rates.at(-1)).toBeCloseTo(3e-3); // the peak is reached on the run's last step
  });

  it("refuses to overwrite a run, and to resume one whose config changed what is trained", async () => {
    const done = config("guarded", { max_steps: 2 });
    await expect(runTraining({ config: done, resume: true, log: quiet })).rejects.toThrow(
      /holds no training run, so --resume has nothing to continue: check output_dir/,
    );
    await runTraining({ config: done, log: quiet });
    await expect(runTraining({ config: done, log: quiet })).rejects.toThrow(
      /already holds a training run \(checkpoint at step 2\): pass --resume to continue it, or set output_dir/,
    );
    await expect(runTraining({ config: done, resume: true, log: quiet })).rejects.toThrow(
      /already at step 2 of max_steps 2: raise max_steps/,
    );
    const changed = config("guarded", { max_steps: 3, batch_size: 8 });
    const error = await runTraining({ config: changed, resume: true, log: quiet }).catch((e) => e);
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toMatch(/the config changed batch_size \(16 → 8\)/);
  });

  it("tells a trainer server it cannot reach in vf's words: one line, a fault of the service", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const url = `http://127.0.0.1:${port}`;
    const error = await runTraining({ config: config("no-trainer", { trainer: { url } }), log: quiet }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SystemError);
    expect((error as SystemError).message).toMatch(
      new RegExp(`^cannot reach the trainer at ${url} \\(.*\\): start it with vf trainer serve --port N`),
    );
  });
});
