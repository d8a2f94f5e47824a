// On-policy distillation end to end: a fresh tiny student, trained by `runTraining` under
// [algo] type = "opd", learns from a teacher served by the engine on loopback (a tiny model
// fine-tuned to answer every vowels prompt with vowels) without any reward in its advantages.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createLocalTrainer, parseModelConfig, Rng } from "@vf-rl/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveTrainConfig } from "../config/load-train-config.ts";
import { readMetrics, type TrainRow } from "../metrics/metrics-file.ts";
import { conversationItem } from "../supervised/sft-example.ts";
import { TINY_MODEL, tinyRunConfig } from "../testing/index.ts";
import { runTraining } from "./run-training.ts";

/** Every rollout scores 0.5 with rewards = [0.5]: the rewards teach nothing. */
const SCRIPTED_REWARDS_ENV = fileURLToPath(new URL("../testing/envs/scripted-rewards", import.meta.url));

let root: string;
let teacherDir: string;

/**
 * A tiny model that answers "say i" with vowels: supervised on strings of random vowels, so that at
 * any position of an answer it puts its mass on vowels.
 */
async function vowelTeacher(dir: string): Promise<string> {
  const trainer = await createLocalTrainer({ config: parseModelConfig(TINY_MODEL), seed: 3, threads: 1 });
  const rng = new Rng(5);
  const vowels = (n: number) => Array.from({ length: n }, () => "aeiou"[Math.floor(rng.nextFloat() * 5)]);
  const items = Array.from({ length: 48 }, (_, i) =>
    conversationItem([
      { role: "user", content: `say ${i % 16}` },
      { role: "assistant", content: vowels(12).join("") },
    ]),
  );
  for (let step = 0; step < 150; step++) {
    await trainer.forwardBackward(items, { type: "cross_entropy" });
    await trainer.optimStep({ learningRate: 1e-2, gradClipNorm: 1 });
  }
  await trainer.saveWeights(dir);
  await trainer.close();
  return dir;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "vf-opd-"));
  teacherDir = await vowelTeacher(join(root, "teacher"));
}, 120_000);
afterAll(() => rm(root, { recursive: true, force: true }));

/**
 * The train rows and console lines of a run of a fresh tiny student under [algo] type "opd" with
 * these weights, on an environment whose every rollout scores 0.5.
 */
async function distill(
  name: string,
  algo: Record<string, unknown>,
): Promise<{ rows: TrainRow[]; lines: string[] }> {
  const config = resolveTrainConfig({
    raw: tinyRunConfig(join(root, name), {
      max_steps: 10,
      env: [{ id: SCRIPTED_REWARDS_ENV, args: { rewards: [0.5] } }],
      batch_size: 64,
      optimizer: { learning_rate: 3e-2 },
      algo: { type: "opd", teacher: { model: teacherDir }, ...algo },
    }),
    where: "test",
  });
  const lines: string[] = [];
  await runTraining({ config, log: (line) => lines.push(line) });
  const { rows } = await readMetrics(join(config.output_dir, "metrics.jsonl"));
  return { rows: rows.filter((r): r is TrainRow => r.kind === "train"), lines };
}

/** The teacher KL estimate of the first two steps and of the last two. */
function klFirstAndLast(rows: readonly TrainRow[]): { first: number; last: number } {
  const mean = (part: readonly TrainRow[]) => part.reduce((a, r) => a + r.teacher_kl!, 0) / part.length;
  return { first: mean(rows.slice(0, 2)), last: mean(rows.slice(-2)) };
}

describe("on-policy distillation from a teacher served on loopback", () => {
  it("moves the student toward the teacher, and does not without the teacher term", async () => {
    // kl_coef 1, reward_weight 0: the teacher's signal alone (the rewards are flat: GRPO has none)
    const distilled = await distill("opd", {});
    expect(distilled.lines).toContainEqual(
      expect.stringMatching(/^distilling from teacher .*teacher at http/),
    );
    expect(distilled.lines.join("\n")).not.toMatch(/cannot check that the teacher tokenizes/);
    expect(distilled.rows).toHaveLength(10);
    expect(distilled.rows.every((r) => r.groups.kept === 16 && r.time_ms.teacher! > 0)).toBe(true);
    const kl = klFirstAndLast(distilled.rows);
    expect(kl.first).toBeGreaterThan(5); // a fresh model's near-uniform tokens, under a teacher sure of vowels
    expect(kl.last).toBeLessThan(0.75 * kl.first);

    // the same run with the teacher term off: the teacher scores, nothing learns
    const control = klFirstAndLast((await distill("control", { kl_coef: 0 })).rows);
    expect(control.first).toBeCloseTo(kl.first, 6); // the same first batches
    expect(control.last).toBeGreaterThan(0.9 * control.first);
  }, 300_000);
});
