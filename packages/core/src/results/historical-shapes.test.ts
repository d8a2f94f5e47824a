// Runs in the shape of every verifiers release that saved them (fixtures/verifiers-<version>/, each
// with a README line saying which releases wrote it): vf's reader, lister and resume open them all,
// and the layouts vf does not read (verifiers 0.1.2's dataset folder, the v1 eval's traces) are named
// with what to do.
import { cp, mkdir, mkdtemp, readFile, rename } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ResumeSettingsMismatchError } from "../errors.ts";
import { ForeignRunError } from "./foreign-run.ts";
import { listRuns } from "./list-runs.ts";
import { planResume } from "./plan-resume.ts";
import { readRun } from "./read-run.ts";

const fixtures = fileURLToPath(new URL("./fixtures/", import.meta.url));

/** What each shape must read as. Every run: 2 examples × 2 rollouts of "arith" or "arith-tools". */
const shapes = [
  {
    // Its sampling settings are top-level `max_tokens` and `temperature`.
    folder: "verifiers-0.1.2.post1",
    metadata: {
      env_id: "arith",
      date: "2025-08-24T09:12:40",
      time: 0,
      sampling_args: { max_tokens: 1024, temperature: 0.7 },
    },
    errors: ["ok", "ok", "ok", "ok"],
    rewards: [1, 0, 1, 1],
  },
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

describe("sampling settings saved by verifiers 0.1.2.post1 at the top level", () => {
  const resume = async (sampling: Record<string, unknown>) => {
    const copy = join(await mkdtemp(join(tmpdir(), "vf-history-")), "run");
    await cp(join(fixtures, "verifiers-0.1.2.post1"), copy, { recursive: true });
    return planResume({
      outputDir: tmpdir(),
      envId: "arith",
      model: "gpt-4.1-mini",
      runDir: copy,
      settings: {
        env_args: {},
        num_examples: 2,
        rollouts_per_example: 2,
        shuffle: false,
        shuffle_seed: 0,
        sampling_args: sampling,
      },
    });
  };

  it("match the same max_tokens and temperature given to vf (-t 1024 -T 0.7)", async () => {
    const plan = await resume({ max_tokens: 1024, temperature: 0.7 });
    expect(plan.type).toBe("resume");
    if (plan.type === "resume") await plan.lock.release();
  });

  it("do not match other ones, and the refusal names the saved values", async () => {
    const other = resume({ max_tokens: 1024, temperature: 0.2 });
    await expect(other).rejects.toThrow(ResumeSettingsMismatchError);
    await expect(other).rejects.toThrow(/sampling_args/);
    await expect(other).rejects.toThrow(/"temperature":0\.7/);
  });
});

describe("results verifiers saved in layouts vf does not read", () => {
  const datasetFolder = join(fixtures, "verifiers-0.1.2");
  const v1Run = join(fixtures, "verifiers-0.2-v1");

  it.each([
    [
      "verifiers 0.1.2's Hugging Face dataset folder",
      datasetFolder,
      /is a Hugging Face dataset folder \(save_to_disk\)/,
    ],
    ["a verifiers v1 eval run", v1Run, /is a run of verifiers' v1 eval \(config\.toml and traces\.jsonl/],
  ])("%s is named, with what to do, by the reader and the lister", async (_, dir, what) => {
    for (const open of [readRun, listRuns]) {
      const refused = open(dir);
      await expect(refused).rejects.toThrow(ForeignRunError);
      await expect(refused).rejects.toThrow(what);
      await expect(refused).rejects.toThrow(/evaluate again with vf eval -s/);
    }
  });

  it("lists v1 runs found in an output folder as unreadable, beside the runs it reads", async () => {
    // verifiers' v1 eval writes outputs/<taskset>--<model>--<harness>/<uuid>/; here beside a run
    // of its vf-eval saved in the same folder (`-o outputs/...` without evals/).
    const outputs = await mkdtemp(join(tmpdir(), "vf-outputs-"));
    await cp(v1Run, join(outputs, "arith--gpt-4.1-mini--default", "6f1c2a9e"), { recursive: true });
    await cp(join(fixtures, "verifiers-0.2"), join(outputs, "arith-tools--gpt-4.1-mini", "0a1b2c3d"), {
      recursive: true,
    });
    const entries = await listRuns(outputs);
    expect(entries.map((entry) => entry.type).sort()).toEqual(["run", "unreadable"]);
    expect(entries.find((entry) => entry.type === "unreadable")).toEqual({
      type: "unreadable",
      dir: join(outputs, "arith--gpt-4.1-mini--default", "6f1c2a9e"),
      runId: "6f1c2a9e",
      message: expect.stringMatching(/is a run of verifiers' v1 eval/),
    });
  });

  it("knows a v1 run from before verifiers named its traces traces.jsonl (results.jsonl, no metadata.json)", async () => {
    const dir = join(await mkdtemp(join(tmpdir(), "vf-v1-")), "run");
    await mkdir(dir);
    await cp(v1Run, dir, { recursive: true });
    await rename(join(dir, "traces.jsonl"), join(dir, "results.jsonl"));
    await expect(readRun(dir)).rejects.toThrow(ForeignRunError);
    expect(await listRuns(join(dir, ".."))).toMatchObject([
      { type: "unreadable", message: expect.stringMatching(/v1 eval/) },
    ]);
  });
});
