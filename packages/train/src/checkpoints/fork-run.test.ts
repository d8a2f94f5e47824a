// Forks: new runs that start from another run's checkpoint (`vf train CONFIG --fork OTHER_RUN`), on
// a tiny fresh model and the toy vowels environment.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResolvedTrainConfig } from "../config/load-train-config.ts";
import { quiet, tinyRun, trainSteps } from "../loop/run-test-support.ts";
import { runTraining } from "../loop/run-training.ts";
import { RunLayout } from "../run-layout.ts";
import { VOWELS_ENV } from "../testing/index.ts";
import { readRunLineage } from "./fork-run.ts";

let root: string;
let parent: ResolvedTrainConfig;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "vf-fork-"));
  parent = config("parent", { checkpoints: { interval: 1, keep_last: 4 } });
  await runTraining({ config: parent, log: quiet });
});
afterAll(() => rm(root, { recursive: true, force: true }));

const config = (name: string, overrides: Record<string, unknown> = {}): ResolvedTrainConfig =>
  tinyRun(root, name, overrides);

describe("a fork", () => {
  it("starts from its parent's checkpoint: with the same config it takes the parent's next steps exactly", async () => {
    const child = config("child");
    const from = new RunLayout(parent.output_dir).checkpoint(2);
    const lines: string[] = [];
    const result = await runTraining({ config: child, fork: from, log: (line) => lines.push(line) });
    expect(result).toMatchObject({ steps: 4, interrupted: false });
    expect(lines).toContain(`forking ${from} into a new run in ${child.output_dir} (step 2 of 4)`);
    expect(lines).toContain(`lineage: forked from ${parent.output_dir} at step 2`);
    // weights, AdamW moments, the policy batch 2 is sampled with and the data order all carried over
    expect(await trainSteps(child.output_dir)).toEqual((await trainSteps(parent.output_dir)).slice(2));
    expect(await readRunLineage(child.output_dir)).toEqual([
      { run_dir: parent.output_dir, step: 2, checkpoint: from },
    ]);
  });

  it("may change the config; what cannot carry over starts afresh, and the lineage of a fork of a fork reads back", async () => {
    const child = config("child-2");
    await runTraining({ config: child, fork: new RunLayout(parent.output_dir).checkpoint(3), log: quiet });
    const grandchild = config("grandchild", {
      max_steps: 5,
      optimizer: { learning_rate: 1e-3 },
      env: [{ id: VOWELS_ENV, args: { rows: 8 } }],
    });
    const lines: string[] = [];
    await runTraining({ config: grandchild, fork: child.output_dir, log: (line) => lines.push(line) });
    expect(lines).toContain(
      "the fork changed env: its data order (prompt order, curricula, carried groups) starts afresh from seed 0",
    );
    expect(lines).toContain(
      `lineage: forked from ${child.output_dir} at step 4, which was forked from ${parent.output_dir} at step 3`,
    );
    expect((await trainSteps(grandchild.output_dir)).map((row) => row[0])).toEqual([5]); // its own rows only
    expect((await readRunLineage(grandchild.output_dir)).map((p) => [p.run_dir, p.step])).toEqual([
      [child.output_dir, 4],
      [parent.output_dir, 3],
    ]);
  });

  it("says in one line when there is nothing to fork from", async () => {
    const empty = join(root, "empty");
    await mkdir(empty);
    const fork = (from: string) => runTraining({ config: config("orphan"), fork: from, log: quiet });
    await expect(fork(empty)).rejects.toThrow(
      `--fork ${empty} holds no training run with a checkpoint: give the folder of a vf train run (its output_dir) or one of its checkpoints/step_N`,
    );
    await expect(fork(new RunLayout(parent.output_dir).checkpoint(9))).rejects.toThrow(
      `--fork ${new RunLayout(parent.output_dir).checkpoint(9)}: ${parent.output_dir} has no checkpoint at step 9; steps with one: 1, 2, 3, 4`,
    );
    await expect(fork(parent.output_dir)).rejects.toThrow(
      `--fork: ${new RunLayout(parent.output_dir).checkpoint(4)} is at step 4 and max_steps is 4: a fork goes on from its parent's step, so set max_steps above 4 (--max_steps 14)`,
    );
  });
});
