// Which weights each folder vf train and vf sft print stands for, as `vf eval -m FOLDER` serves them.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWeights } from "./run-weights.ts";
import { writeTinyModel } from "./testing/index.ts";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "vf-run-weights-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** A vf train checkpoint folder: progress.json and the trainer's state, whose weights load as a model. */
async function checkpoint(dir: string): Promise<string> {
  await writeTinyModel(join(dir, "trainer"));
  await writeFile(join(dir, "progress.json"), "{}");
  return dir;
}

describe("runWeights", () => {
  it("takes a vf train run folder as its newest weights, and a checkpoint as the weights it holds", async () => {
    const run = join(root, "train");
    await writeTinyModel(join(run, "weights", "step_9"));
    await writeTinyModel(join(run, "weights", "step_10"));
    await mkdir(join(run, "weights", "step_11")); // being written when the run was killed
    const saved = await checkpoint(join(run, "checkpoints", "step_10"));
    expect(runWeights(run)).toEqual({
      dir: join(run, "weights", "step_10"),
      name: join(run, "weights", "step_10"),
    });
    expect(runWeights(saved)).toEqual({ dir: join(saved, "trainer"), name: saved });
    expect(runWeights(join(run, "weights", "step_9"))?.dir).toBe(join(run, "weights", "step_9"));
  });

  it("falls back to a run's newest checkpoint when no weights are left", async () => {
    const run = join(root, "pruned");
    await checkpoint(join(run, "checkpoints", "step_5"));
    await checkpoint(join(run, "checkpoints", "step_20"));
    await mkdir(join(run, "weights"), { recursive: true });
    expect(runWeights(run)).toEqual({
      dir: join(run, "checkpoints", "step_20", "trainer"),
      name: join(run, "checkpoints", "step_20"),
    });
  });

  it("takes a vf sft output folder as its final weights, else its newest step", async () => {
    const sft = join(root, "sft");
    await writeTinyModel(join(sft, "step-100"));
    await writeTinyModel(join(sft, "step-40"));
    expect(runWeights(sft)?.dir).toBe(join(sft, "step-100"));
    await writeTinyModel(join(sft, "final"));
    expect(runWeights(sft)?.dir).toBe(join(sft, "final"));
  });

  it("finds nothing in a folder of neither, or one that does not exist", async () => {
    await mkdir(join(root, "other", "step_1"), { recursive: true });
    expect(runWeights(join(root, "other"))).toBeUndefined();
    expect(runWeights(join(root, "missing"))).toBeUndefined();
  });
});
