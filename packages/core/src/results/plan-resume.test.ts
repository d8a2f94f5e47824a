import { appendFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UserError } from "../errors.ts";
import { RolloutRecord } from "../records/rollout-record.ts";
import { RunMetadata, type RunStatus } from "../records/run-metadata.ts";
import { completedGroups, planResume } from "./plan-resume.ts";
import { readRun } from "./read-run.ts";
import type { ResumeSettings } from "./resume-settings.ts";
import { runDirectory } from "./run-directory.ts";
import { RunWriter } from "./run-writer.ts";

const envId = "echo";
const model = "org/tiny";
const settings: ResumeSettings = {
  env_args: { difficulty: "hard", size: 3 },
  num_examples: 3,
  rollouts_per_example: 2,
  shuffle: true,
  shuffle_seed: 7,
  sampling_args: { temperature: 0.7, max_tokens: 64 },
};

const record = (exampleId: number, rolloutIndex: number, reward = 1) =>
  RolloutRecord.parse({
    example_id: exampleId,
    rollout_index: rolloutIndex,
    prompt: [{ role: "user", content: `q${exampleId}` }],
    completion: [{ role: "assistant", content: `a${rolloutIndex}` }],
    reward,
  });

/** A group of r rollouts of one example. */
const group = (exampleId: number) => [record(exampleId, 0), record(exampleId, 1)];

interface SavedRun {
  runId: string;
  status: RunStatus;
  examples: number[];
  date?: string;
  overrides?: Partial<RunMetadata>;
}

async function saveRun(outputDir: string, run: SavedRun): Promise<RunWriter> {
  const writer = await RunWriter.open({ dir: runDirectory({ outputDir, envId, model, runId: run.runId }) });
  await writer.writeMetadata(
    RunMetadata.parse({
      env_id: envId,
      model,
      ...settings,
      status: run.status,
      date: run.date ?? "2026-03-01T10:00:00Z",
      ...run.overrides,
    }),
  );
  for (const exampleId of run.examples) await writer.append(group(exampleId));
  await writer.close();
  return writer;
}

const outputDir = () => mkdtemp(join(tmpdir(), "vf-resume-"));

describe("planResume", () => {
  it("continues a killed run: the torn line goes, done rollouts are skipped, no row is duplicated", async () => {
    const out = await outputDir();
    const writer = await saveRun(out, { runId: "killed01", status: "running", examples: [0, 1] });
    // Killed while writing example 2's group.
    await appendFile(writer.resultsPath, JSON.stringify(record(2, 0)).slice(0, 30));

    const plan = await planResume({ outputDir: out, envId, model, settings });
    if (plan.type !== "resume") throw new Error(`expected a plan, got ${JSON.stringify(plan)}`);
    expect(plan).toMatchObject({ dir: writer.dir, runId: "killed01", tail: "truncated", dropped: 0 });
    expect(plan.records).toHaveLength(4);
    expect([...plan.completed].map(([e, indices]) => [e, [...indices]])).toEqual([
      [0, [0, 1]],
      [1, [0, 1]],
    ]);

    // The caller runs only what is missing and appends it to the same folder.
    const todo = [0, 1, 2].flatMap((e) => [0, 1].map((i) => [e, i] as const));
    const missing = todo.filter(([e, i]) => !plan.completed.get(e)?.has(i));
    expect(missing).toEqual([
      [2, 0],
      [2, 1],
    ]);
    const resumed = await RunWriter.open({ dir: plan.dir, resume: true, lock: plan.lock });
    await resumed.append(missing.map(([e, i]) => record(e, i)));

    const run = await readRun(plan.dir);
    expect(run.warnings).toEqual([]);
    const keys = run.records.map((r) => `${r.example_id}/${r.rollout_index}`);
    expect(keys).toEqual(["0/0", "0/1", "1/0", "1/1", "2/0", "2/1"]);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("picks the latest unfinished run whose settings match, and says why it passed over the others", async () => {
    const out = await outputDir();
    await saveRun(out, {
      runId: "older001",
      status: "interrupted",
      examples: [0],
      date: "2026-03-01T09:00:00Z",
    });
    await saveRun(out, {
      runId: "newer001",
      status: "interrupted",
      examples: [0, 1],
      date: "2026-03-02T09:00:00Z",
    });
    await saveRun(out, {
      runId: "finished",
      status: "complete",
      examples: [0, 1, 2],
      date: "2026-03-03T09:00:00Z",
    });
    await saveRun(out, {
      runId: "otherr01",
      status: "running",
      examples: [0],
      date: "2026-03-04T09:00:00Z",
      overrides: { rollouts_per_example: 4 },
    });

    const plan = await planResume({ outputDir: out, envId, model, settings });
    expect(plan).toMatchObject({ type: "resume", runId: "newer001" });
    expect(plan.type === "resume" && completedGroups(plan.records, 2)).toEqual(new Set([0, 1]));

    const none = await planResume({
      outputDir: out,
      envId,
      model,
      settings: { ...settings, shuffle_seed: 8 },
    });
    expect(none.type).toBe("none");
    const reasons =
      none.type === "none" ? Object.fromEntries(none.candidates.map((c) => [c.dir.slice(-8), c.reason])) : {};
    expect(reasons.otherr01).toBe(
      "settings differ: rollouts_per_example (saved 4, now 2); shuffle_seed (saved 7, now 8)",
    );
    expect(reasons.older001).toBe("settings differ: shuffle_seed (saved 7, now 8)");
  });

  it("treats a finished run as unfinished when more examples are now asked for", async () => {
    const out = await outputDir();
    await saveRun(out, {
      runId: "small001",
      status: "complete",
      examples: [0, 1],
      overrides: { num_examples: 2 },
    });
    const same = await planResume({
      outputDir: out,
      envId,
      model,
      settings: { ...settings, num_examples: 2 },
    });
    expect(same).toMatchObject({ type: "none", candidates: [{ reason: "finished (4 rows)" }] });
    const more = await planResume({
      outputDir: out,
      envId,
      model,
      settings: { ...settings, num_examples: 5 },
    });
    expect(more).toMatchObject({ type: "resume", runId: "small001" });
    const fewer = await planResume({
      outputDir: out,
      envId,
      model,
      settings: { ...settings, num_examples: 1 },
    });
    expect(fewer.type === "none" && fewer.candidates[0]!.reason).toBe(
      "settings differ: num_examples (saved 2, now 1)",
    );
  });

  it("compares env and sampling args by value: key order and null-valued keys do not matter", async () => {
    const out = await outputDir();
    await saveRun(out, { runId: "args0001", status: "running", examples: [0] });
    const reordered = {
      ...settings,
      env_args: { size: 3, difficulty: "hard" },
      sampling_args: { max_tokens: 64, temperature: 0.7, top_p: null },
    };
    expect(await planResume({ outputDir: out, envId, model, settings: reordered })).toMatchObject({
      type: "resume",
    });
  });

  it("resumes a named run only when it matches, naming each difference otherwise", async () => {
    const out = await outputDir();
    const writer = await saveRun(out, { runId: "named001", status: "interrupted", examples: [0] });
    const runDir = writer.dir;
    const changed = { ...settings, rollouts_per_example: 3, env_args: { difficulty: "easy", size: 3 } };
    const attempt = planResume({ outputDir: out, envId, model: "org/other", settings: changed, runDir });
    await expect(attempt).rejects.toThrow(UserError);
    await expect(
      planResume({ outputDir: out, envId, model: "org/other", settings: changed, runDir }),
    ).rejects.toThrow(
      `cannot resume ${runDir}: its settings differ: model (saved "org/tiny", now "org/other"); rollouts_per_example (saved 2, now 3); env_args (saved {"difficulty":"hard","size":3}, now {"difficulty":"easy","size":3}): rerun with the saved settings, or start a new run instead of resuming`,
    );
    expect(await planResume({ outputDir: out, envId, model, settings, runDir })).toMatchObject({
      type: "resume",
      dir: runDir,
    });
  });

  it("drops rows beyond r per example and second copies from the file, keeping unreadable lines", async () => {
    const out = await outputDir();
    const writer = await saveRun(out, { runId: "extra001", status: "running", examples: [0] });
    await writer.append([record(0, 1, 0), record(0, 2), record(1, 0)]); // a duplicate and an index ≥ r
    await appendFile(writer.resultsPath, "{garbled\n");

    const plan = await planResume({ outputDir: out, envId, model, settings, runDir: writer.dir });
    if (plan.type !== "resume") throw new Error("expected a plan");
    expect(plan.dropped).toBe(2);
    expect(plan.records.map((r) => `${r.example_id}/${r.rollout_index}/${r.reward}`)).toEqual([
      "0/0/1",
      "0/1/1",
      "1/0/1",
    ]);
    expect(plan.warnings).toEqual([
      expect.objectContaining({ line: 6, message: expect.stringMatching(/^not JSON/) }),
    ]);

    const lines = (await readFile(writer.resultsPath, "utf8")).trimEnd().split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe("{garbled");
  });

  it("passes over a folder that is not a readable run, saying why", async () => {
    const out = await outputDir();
    const writer = await saveRun(out, { runId: "norows01", status: "running", examples: [] });
    await rm(writer.resultsPath);
    const plan = await planResume({ outputDir: out, envId, model, settings });
    expect(plan).toMatchObject({
      type: "none",
      candidates: [{ dir: writer.dir, reason: expect.stringContaining("results.jsonl does not exist") }],
    });
  });

  it("finds nothing when this env and model were never run", async () => {
    expect(await planResume({ outputDir: await outputDir(), envId, model, settings })).toEqual({
      type: "none",
      candidates: [],
    });
  });
});

describe("completedGroups", () => {
  it("names the examples that have every rollout 0..r-1", () => {
    const records = [record(0, 0), record(0, 1), record(1, 1), record(2, 0), record(2, 1), record(2, 2)];
    expect(completedGroups(records, 2)).toEqual(new Set([0, 2]));
    expect(completedGroups(records, 3)).toEqual(new Set([2]));
  });
});
