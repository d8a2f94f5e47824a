// Resuming a run at an older checkpoint (`--resume-step N`), with checkpoints kept as prime-rl keeps
// them (keep_last, keep_interval): a tiny fresh model on the toy vowels environment.
import { readdirSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResolvedTrainConfig } from "../config/load-train-config.ts";
import { quiet, tinyRun, trainSteps } from "../loop/run-test-support.ts";
import { runTraining } from "../loop/run-training.ts";
import { RunLayout } from "../run-layout.ts";
import { checkpointSteps } from "./run-checkpoint.ts";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "vf-resume-step-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const config = (name: string, overrides: Record<string, unknown> = {}): ResolvedTrainConfig =>
  tinyRun(root, name, overrides);

describe("resuming at a step", () => {
  it("keeps the newest keep_last checkpoints and every multiple of keep_interval; resumed at an older one, discards what came after and retakes the same steps", async () => {
    const run = config("back", { checkpoints: { interval: 1, keep_last: 1, keep_interval: 2 } });
    const layout = new RunLayout(run.output_dir);
    await runTraining({ config: run, log: quiet });
    expect(await checkpointSteps(layout)).toEqual([2, 4]); // 4 the newest, 2 a multiple of 2
    const unbroken = await trainSteps(run.output_dir);
    expect(unbroken.map((row) => row[0])).toEqual([1, 2, 3, 4]);

    await expect(runTraining({ config: run, resumeStep: 3, log: quiet })).rejects.toThrow(
      `--resume-step 3: ${layout.dir} has no checkpoint at step 3; steps with one: 2, 4`,
    );

    const lines: string[] = [];
    const onDisk: number[][] = [];
    const resumed = await runTraining({
      config: run,
      resumeStep: 2,
      log: (line) => lines.push(line),
      onRow: (row) => {
        const names = readdirSync(layout.checkpointsDir).filter((n) => /^step_\d+$/.test(n));
        if (row.kind === "train") onDisk.push(names.map((n) => Number(n.slice(5))).sort((a, b) => a - b));
      },
    });
    expect(resumed).toMatchObject({ steps: 4, interrupted: false });
    expect(lines).toContain(`resuming ${layout.dir} from ${layout.checkpoint(2)} (step 2 of 4)`);
    expect(lines).toContain(
      "going back to step 2: discarded the checkpoints of step 4 and 2 steps of metrics written after it",
    );
    // the old step 4 went at the start; step 2 stays until a newer one exists, and for good (keep_interval)
    expect(onDisk).toEqual([[2], [2, 3]]);
    expect(await checkpointSteps(layout)).toEqual([2, 4]);
    expect(await trainSteps(run.output_dir)).toEqual(unbroken); // steps 3 and 4 as the unbroken run took them
  });
});

describe("resuming a checkpoint written by an older vf", () => {
  it("reads keys added since then at their defaults, so the run continues; a key set otherwise is still refused", async () => {
    const run = config("older", { max_steps: 2, checkpoints: { interval: 1 } });
    const layout = new RunLayout(run.output_dir);
    await runTraining({ config: run, log: quiet });
    // the checkpoint as an older vf wrote it: without the keys that came later
    const progressFile = join(layout.checkpoint(2), "progress.json");
    const progress = JSON.parse(await readFile(progressFile, "utf8")) as { config: Record<string, unknown> };
    for (const key of ["max_off_policy_steps", "filter_zero_advantages", "filters", "algo"]) {
      delete progress.config[key];
    }
    await writeFile(progressFile, JSON.stringify(progress));

    const longer = { ...run, max_steps: 3 };
    const resumed = await runTraining({ config: longer, resume: true, log: quiet });
    expect(resumed).toMatchObject({ steps: 3, interrupted: false });

    const stricter = { ...run, max_steps: 4, max_off_policy_steps: 2 };
    await expect(runTraining({ config: stricter, resume: true, log: quiet })).rejects.toThrow(
      "--resume: the config changed max_off_policy_steps (8 → 2)",
    );
  });
});
