// `vf train` through the bash harness, end to end with the real binary: the shipped
// bash-arithmetic config (prime-rl's [env.taskset] and [env.agent] tables) from its warm start,
// cut to two small steps, in the local sandbox. Each rollout is the bash agent (node) running
// in its folder, its model calls going through the interception server to the engine's server,
// and the steps train on the tokens the model sampled in those calls: the harness's text and the
// tool's output are context, so the trained tokens never exceed the completion tokens.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runVf } from "@vf-rl/test-support";
import { readMetrics, type TrainRow } from "@vf-rl/train";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO = join(import.meta.dirname, "..", "..", "..", "..", "..");
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "vf-train-agents-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("vf train through the bash harness", () => {
  it("completes its steps on the agent's sampled tokens and writes their metrics", async () => {
    const runDir = join(dir, "run");
    const result = await runVf(
      [
        "train",
        "configs/train/bash-arithmetic.toml",
        "--max_steps=2",
        // one group of 4 a step; the config's oversampling draws 2 a round, as few have a reward spread
        "--batch_size=4",
        "--rollouts_per_example=4",
        "--micro_batch_size=4",
        "--max_concurrent=8",
        "--checkpoints.interval=0",
        `--output_dir=${runDir}`,
      ],
      { cwd: REPO, timeoutSeconds: 300 },
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const { rows } = await readMetrics(join(runDir, "metrics.jsonl"));
    const train = rows.filter((r): r is TrainRow => r.kind === "train");
    expect(train.map((r) => r.step)).toEqual([1, 2]);
    for (const row of train) {
      expect(row.rollouts).toBe(4);
      expect(row.errors).toBe(0);
      expect(row.tokens.trained).toBeGreaterThan(0);
      expect(row.tokens.trained).toBeLessThanOrEqual(row.tokens.completion);
    }
    // Rollouts that ran a command made two model calls, both trained.
    expect(Math.max(...train.map((r) => r.turns_mean))).toBeGreaterThan(1);

    // The vf eval it prints evaluates the checkpoint as it was trained: the same harness with the
    // config's options (with the default tools the prompt overflows this model's context) and runtime.
    const printed = /^evaluate it: npx vf eval (.+)$/m.exec(result.stdout)?.[1];
    expect(printed).toMatch(
      /^bash-arithmetic -m \S+ --harness bash --harness-args '\{"tools":\["bash"\].*' --runtime local$/,
    );
    const words = (printed!.match(/'[^']*'|\S+/g) ?? []).map((w) => w.replace(/^'(.*)'$/, "$1"));
    const evaluated = await runVf(["eval", ...words, "-n", "2", "-r", "1", "--json"], {
      cwd: REPO,
      timeoutSeconds: 120,
    });
    expect(evaluated.stderr).not.toMatch(/^error:/m);
    expect(JSON.parse(evaluated.stdout)).toMatchObject({ env_id: "bash-arithmetic", avg_error: 0 });
  });
});
