// Runs in the shape of every verifiers release that saved them (fixtures/verifiers-<version>/, each
// with a README line saying which releases wrote it): vf's reader, lister and resume open them all.
import { cp, mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { listRuns } from "./list-runs.ts";
import { planResume } from "./plan-resume.ts";
import { readRun } from "./read-run.ts";

const fixtures = fileURLToPath(new URL("./fixtures/", import.meta.url));

/** What each shape must read as. Every run: 2 examples × 2 rollouts of "arith" or "arith-tools". */
const shapes = [
  {
    folder: "verifiers-0.1.3",
    metadata: { env_id: "arith", date: "2025-08-28T14:03:11", time: 0, sampling_args: { temperature: 0.7 } },
    errors: ["ok", "ok", "ok", "ok"],
    rewards: [1, 0, 1, 1],
  },
  {
    folder: "verifiers-0.1.4",
    metadata: {
      env_id: "arith",
      date: "2025-09-30T00:47:48",
      time: 5.1205,
      sampling_args: { max_tokens: 256 },
    },
    errors: ["ok", "ok", "ok", "ok"],
    rewards: [1, 0, 1, 1],
  },
  {
    // Its avg_reward is a 0.0 placeholder: the reader recomputes it.
    folder: "verifiers-0.1.6",
    metadata: { env_id: "arith", time: 0, sampling_args: { temperature: 0.7, top_k: 20 } },
    errors: ["ok", "ok", "ok", "ok"],
    rewards: [1, 0, 1, 1],
  },
  {
    folder: "verifiers-0.1.9",
    metadata: { env_id: "arith", time: 3.30025, sampling_args: {} },
    errors: ["ok", "InfraError", "ok", "ok"],
    rewards: [1, 0, 1, 1],
  },
  {
    folder: "verifiers-0.1.10",
    metadata: { env_id: "arith-tools", time: 2.9, avg_error: 0.25, version_info: { vf_version: "0.1.10" } },
    errors: ["ok", "ModelHttpError", "ok", "ok"],
    rewards: [1, 0, 1, 1],
  },
  {
    folder: "verifiers-0.1.11",
    metadata: { env_id: "arith-tools", time: 2.9, pass_at_k: { "1": 0.5, "2": 0.5 }, pass_threshold: 0.5 },
    errors: ["ok", "ModelHttpError", "ok", "ok"],
    rewards: [1, 0, 1, 1],
  },
  {
    folder: "verifiers-0.1.14",
    metadata: { env_id: "arith-tools", time: 2.9, usage: { final_input_tokens: 100 } },
    errors: ["ok", "ModelHttpError", "ok", "ok"],
    rewards: [1, 0, 1, 1],
  },
  {
    folder: "verifiers-0.2",
    metadata: { env_id: "arith-tools", time: 2.9, shuffle: false, shuffle_seed: 0 },
    errors: ["ok", "ModelHttpError", "ok", "ok"],
    rewards: [1, 0, 1, 1],
  },
];

const calculator = {
  type: "function",
  function: {
    name: "calculator",
    description: "Evaluate an arithmetic expression.",
    parameters: expect.any(Object),
  },
};

describe.each(shapes)("a run saved by $folder", (shape) => {
  const dir = join(fixtures, shape.folder);

  it("reads whole, with today's field names and the reward recomputed from the rows", async () => {
    const readme = await readFile(join(dir, "README.md"), "utf8");
    expect(readme).toMatch(/^Written by verifiers \d/);
    const run = await readRun(dir);
    expect(run.warnings).toEqual([]);
    expect(run.metadata).toMatchObject({
      model: "gpt-4.1-mini",
      num_examples: 2,
      rollouts_per_example: 2,
      status: "complete",
      avg_reward: 0.75,
      ...shape.metadata,
    });
    expect(run.metadata.avg_metrics).toHaveProperty("correct_reward_func");
    expect(run.records.map((r) => `${r.example_id}/${r.rollout_index}`)).toEqual([
      "0/0",
      "0/1",
      "1/0",
      "1/1",
    ]);
    expect(run.records.map((r) => r.error?.error ?? "ok")).toEqual(shape.errors);
    for (const record of run.records) {
      if (record.error) expect(record.error.message).not.toBe("");
    }
    expect(run.records.map((r) => r.reward)).toEqual(shape.rewards);
    expect(run.records.map((r) => r.metrics.correct_reward_func)).toEqual(shape.rewards);
    if (shape.metadata.env_id === "arith-tools") {
      expect(run.metadata.tools).toEqual([calculator]);
      expect(run.records[0]!.tool_defs).toEqual([calculator]);
      expect(run.records[0]!.completion[0]).toMatchObject({
        role: "assistant",
        tool_calls: [{ id: "call_0", function: { name: "calculator" } }],
      });
    }
  });

  it("is listed with the recomputed reward", async () => {
    expect(await listRuns(dir)).toMatchObject([
      {
        type: "run",
        envId: shape.metadata.env_id,
        rows: 4,
        duplicates: 0,
        avgReward: 0.75,
        status: "complete",
      },
    ]);
  });

  it("resumes under the same settings as vf states them, rerunning infrastructure failures only", async () => {
    const copy = join(await mkdtemp(join(tmpdir(), "vf-history-")), shape.folder);
    await cp(dir, copy, { recursive: true });
    const { metadata } = await readRun(copy);
    const plan = await planResume({
      outputDir: tmpdir(),
      envId: metadata.env_id,
      model: metadata.model,
      runDir: copy,
      settings: {
        env_args: metadata.env_args,
        num_examples: 2,
        rollouts_per_example: 2,
        shuffle: false,
        shuffle_seed: 0,
        // As a vf user would pass them: extra_body's fields at the top level, no n.
        sampling_args: { ...metadata.sampling_args },
      },
    });
    if (plan.type !== "resume") throw new Error("expected a plan");
    await plan.lock.release();
    const infra = shape.errors.filter((e) => e !== "ok").length;
    expect(plan.rerun).toBe(infra);
    expect(plan.records).toHaveLength(4 - infra);
  });
});

describe("sampling settings saved by verifiers 0.1.6 to 0.1.12", () => {
  it("match the same settings given to vf with extra_body, n and nulls as verifiers sent them", async () => {
    const copy = join(await mkdtemp(join(tmpdir(), "vf-history-")), "run");
    await cp(join(fixtures, "verifiers-0.1.6"), copy, { recursive: true });
    const plan = await planResume({
      outputDir: tmpdir(),
      envId: "arith",
      model: "gpt-4.1-mini",
      runDir: copy,
      settings: {
        env_args: { num_eval_examples: 2 },
        num_examples: 2,
        rollouts_per_example: 2,
        shuffle: false,
        shuffle_seed: 0,
        sampling_args: { n: 1, extra_body: { top_k: 20 }, temperature: 0.7, max_tokens: null },
      },
    });
    expect(plan.type).toBe("resume");
    if (plan.type === "resume") await plan.lock.release();
  });
});
