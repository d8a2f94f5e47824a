// A run with an [sft] stage, end to end on a tiny fresh model and the toy `vowels` environment, whose
// every row has the reference "aeiou": the stage teaches the model to write vowels, the RL
// stage starts from exactly its weights, and a run stopped in either stage resumes to the end an
// unbroken run reaches, its SFT stage run once.
import { cpSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UserError } from "@vf-rl/core";
import { loadCheckpoint } from "@vf-rl/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ResolvedTrainConfig, resolveTrainConfig } from "../config/load-train-config.ts";
import { type EvalRow, type MetricsRow, readMetrics, type TrainRow } from "../metrics/metrics-file.ts";
import type { SftRow } from "../metrics/sft-row.ts";
import { tinyRunConfig, VOWELS_ENV } from "../testing/index.ts";
import { describeStages, runStages } from "./run-stages.ts";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "vf-stages-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const quiet = (): void => {};

/** SFT for 40 steps on the references, then 2 RL steps, evaluated before the first. */
function config(name: string, overrides: Record<string, unknown> = {}): ResolvedTrainConfig {
  const raw = tinyRunConfig(join(root, name), {
    max_steps: 2,
    env: [{ id: VOWELS_ENV, args: { reference: "aeiou" } }],
    eval: { interval: 0, num_examples: 8 },
    ...overrides,
  });
  return resolveTrainConfig({
    raw: { ...raw, sft: { max_steps: 40, batch_size: 8, lr: 1e-2, save_every: 0 } },
    where: "test",
  });
}

async function rowsOf(dir: string): Promise<MetricsRow[]> {
  return (await readMetrics(join(dir, "metrics.jsonl"))).rows;
}

const sftNumbers = (rows: MetricsRow[]) =>
  rows
    .filter((r): r is SftRow => r.kind === "sft")
    .map((r) => [r.step, r.loss, r.grad_norm, r.learning_rate, r.tokens]);
const trainNumbers = (rows: MetricsRow[]) =>
  rows
    .filter((r): r is TrainRow => r.kind === "train")
    .map((r) => [r.step, r.loss, r.grad_norm, r.reward_mean, r.mismatch_kl, r.tokens]);
const firstEval = (rows: MetricsRow[]) => rows.find((r): r is EvalRow => r.kind === "eval" && r.step === 0);

describe("a run with an [sft] stage", () => {
  it("fine-tunes on the environment's references, then starts RL from exactly those weights", async () => {
    const staged = config("staged");
    const lines: string[] = [];
    const policy0 = join(root, "policy-0");
    const result = await runStages({
      config: staged,
      log: (line) => lines.push(line),
      onRow: (row) => {
        // policy 0 is deleted once no batch needs it: keep a copy while it is evaluated
        if (row.kind === "eval" && row.step === 0)
          cpSync(join(staged.output_dir, "weights", "step_0"), policy0, { recursive: true });
      },
    });
    expect(result).toMatchObject({ stage: "rl", steps: 2, interrupted: false });

    const rows = await rowsOf(staged.output_dir);
    expect(rows.slice(0, 40).map((r) => `${r.kind} ${r.step}`)).toEqual(
      Array.from({ length: 40 }, (_, i) => `sft ${i + 1}`),
    );
    const sft = rows.filter((r): r is SftRow => r.kind === "sft");
    expect(sft.at(-1)!.loss).toBeLessThan(sft[0]!.loss / 3);
    // RL's policy 0 is the stage's final weights, bit for bit
    const handedOver = await loadCheckpoint(policy0);
    expect(handedOver.params).toEqual((await loadCheckpoint(join(staged.output_dir, "sft", "final"))).params);
    // which write vowels (the fresh model's step-0 eval scores 0 here)
    expect(firstEval(rows)!.reward_mean).toBeGreaterThan(0.9);
    expect(lines.some((l) => /^stage sft: 40 steps of 8 conversations/.test(l))).toBe(true);
    expect(lines.some((l) => /^sft step 40\/40 \| loss [\d.]+ \| eval loss [\d.]+/.test(l))).toBe(true);
    expect(lines.some((l) => l.startsWith("stage rl: policy 0 is the sft stage's weights"))).toBe(true);
    expect((await readdir(join(staged.output_dir, "sft"))).sort()).toEqual([
      "checkpoints",
      "final",
      "loss-curve.svg",
      "metrics.jsonl",
    ]);

    // the same RL run from the stage's weights as a plain `model`: the same steps, so the RL stage
    // began with a fresh optimizer, not the stage's moments
    const plain = config("plain", { model: join(staged.output_dir, "sft", "final") });
    const unstaged = await runStages({ config: { ...plain, sft: undefined }, log: quiet });
    expect(unstaged.stage).toBe("rl");
    expect(trainNumbers(await rowsOf(plain.output_dir))).toEqual(trainNumbers(rows));
    expect(firstEval(await rowsOf(plain.output_dir))!.reward_mean).toBe(firstEval(rows)!.reward_mean);
  }, 120_000);

  it("stopped in its SFT stage, then in RL, resumes each to the end an unbroken run reaches", async () => {
    const unbroken = config("unbroken");
    await runStages({ config: unbroken, log: quiet });

    const broken = config("broken");
    const stopInSft = new AbortController();
    const first = await runStages({
      config: broken,
      signal: stopInSft.signal,
      log: quiet,
      onRow: (row) => {
        if (row.kind === "sft" && row.step === 10) stopInSft.abort(); // as Ctrl-C at step 10
      },
    });
    expect(first).toMatchObject({ stage: "sft", steps: 0, interrupted: true });
    expect(first.checkpoint).toBe(join(broken.output_dir, "sft", "checkpoints", "step_10"));
    await expect(runStages({ config: broken, log: quiet })).rejects.toThrow(
      /already holds a training run \(its sft stage at step 10\): pass --resume/,
    );

    const stopInRl = new AbortController();
    const lines: string[] = [];
    const second = await runStages({
      config: broken,
      resume: true,
      signal: stopInRl.signal,
      log: (line) => lines.push(line),
      onRow: (row) => {
        if (row.kind === "train" && row.step === 1) stopInRl.abort();
      },
    });
    expect(second).toMatchObject({ stage: "rl", steps: 1, interrupted: true });
    expect(lines.some((l) => l.includes("from step 0"))).toBe(false);

    const third = await runStages({ config: broken, resume: true, log: (line) => lines.push(line) });
    expect(third).toMatchObject({ stage: "rl", steps: 2, interrupted: false });
    expect(lines).toContain("stage rl (the sft stage is done)");

    const expected = await rowsOf(unbroken.output_dir);
    const resumed = await rowsOf(broken.output_dir);
    expect(sftNumbers(resumed)).toEqual(sftNumbers(expected)); // each SFT step once, as unbroken
    expect(trainNumbers(resumed)).toEqual(trainNumbers(expected));
    expect((await loadCheckpoint(join(broken.output_dir, "sft", "final"))).params).toEqual(
      (await loadCheckpoint(join(unbroken.output_dir, "sft", "final"))).params,
    );
  }, 180_000);

  it("refuses to resume a stage whose config changed, and names the stages for --dry-run", async () => {
    const changed = config("changed");
    const stop = new AbortController();
    await runStages({
      config: changed,
      signal: stop.signal,
      log: quiet,
      onRow: (row) => {
        if (row.kind === "sft" && row.step === 2) stop.abort();
      },
    });
    const other = { ...changed, sft: { ...changed.sft!, lr: 5e-3 } };
    const error = await runStages({ config: other, resume: true, log: quiet }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(
      /^--resume: the config changed sft \(.*"lr":0\.01.*→.*"lr":0\.005/,
    );

    expect(describeStages(changed)).toBe(
      `stages: sft (40 steps of 8 on the reference answers of ${VOWELS_ENV}), then rl (2 steps) from its weights`,
    );
    expect(describeStages({ ...changed, sft: undefined })).toBe("stages: rl (2 steps)");
  }, 60_000);
});
