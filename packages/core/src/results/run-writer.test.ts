import { appendFile, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SystemError, UserError } from "../errors.ts";
import { RolloutRecord } from "../records/rollout-record.ts";
import { RunMetadata } from "../records/run-metadata.ts";
import { readRun } from "./read-run.ts";
import { newRunId, runDirectory } from "./run-directory.ts";
import { RunWriter } from "./run-writer.ts";

function record(
  exampleId: number,
  rolloutIndex: number,
  reward: number,
  metrics: Record<string, number> = {},
) {
  return RolloutRecord.parse({
    example_id: exampleId,
    rollout_index: rolloutIndex,
    prompt: [{ role: "user", content: `question ${exampleId}` }],
    completion: [{ role: "assistant", content: `answer ${rolloutIndex}` }],
    reward,
    metrics,
  });
}

const meta = RunMetadata.parse({ env_id: "echo", model: "m", num_examples: 2, rollouts_per_example: 2 });

async function freshDir(): Promise<string> {
  const outputDir = await mkdtemp(join(tmpdir(), "vf-writer-"));
  return runDirectory({ outputDir, envId: "echo", model: "org/m", runId: newRunId() });
}

describe("RunWriter", () => {
  it("creates the folder and appends one line per rollout, each metric also at the top level", async () => {
    const dir = await freshDir();
    const writer = await RunWriter.open({ dir });
    await writer.writeMetadata({ ...meta, status: "running" });
    await writer.append([record(0, 0, 1, { exact: 1, length: 6 }), record(0, 1, 0, { exact: 0, length: 9 })]);
    await writer.append([record(1, 0, 1, { exact: 1, length: 4 })]);

    const lines = (await readFile(writer.resultsPath, "utf8")).trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    const first = JSON.parse(lines[0]!);
    expect(first).toMatchObject({
      example_id: 0,
      rollout_index: 0,
      reward: 1,
      metrics: { exact: 1, length: 6 },
    });
    expect(first.exact).toBe(1);
    expect(first.length).toBe(6);
    expect(writer.rowsWritten).toBe(3);

    const run = await readRun(dir);
    expect(run.metadata.status).toBe("running");
    expect(run.records.map((r) => [r.example_id, r.rollout_index, r.reward])).toEqual([
      [0, 0, 1],
      [0, 1, 0],
      [1, 0, 1],
    ]);
    expect(run.records[2]!.metrics).toEqual({ exact: 1, length: 4 });
    expect(run.warnings).toEqual([]);
  });

  it("never lets a metric named like a field overwrite it: that metric stays only in `metrics`", async () => {
    const writer = await RunWriter.open({ dir: await freshDir() });
    await writer.writeMetadata(meta);
    await writer.append([record(0, 0, 0.25, { reward: 1, task: 2, bonus: 3 })]);
    const row = JSON.parse(await readFile(writer.resultsPath, "utf8"));
    expect(row.reward).toBe(0.25);
    expect(row.task).toBe("default");
    expect(row.bonus).toBe(3);
    expect(row.metrics).toEqual({ reward: 1, task: 2, bonus: 3 });
    const [back] = (await readRun(writer.dir)).records;
    expect(back).toMatchObject({ reward: 0.25, task: "default", metrics: { reward: 1, task: 2, bonus: 3 } });
  });

  it("refuses a record that could not be read back, writing nothing of its batch", async () => {
    const writer = await RunWriter.open({ dir: await freshDir() });
    const bad = { ...record(3, 1, 0), reward: Number.NaN };
    await expect(writer.append([record(3, 0, 1), bad])).rejects.toThrow(SystemError);
    await expect(writer.append([record(3, 0, 1), bad])).rejects.toThrow(/example 3, rollout 1: reward/);
    expect(await readFile(writer.resultsPath, "utf8")).toBe("");
  });

  it("keeps concurrent batches whole and in call order", async () => {
    const writer = await RunWriter.open({ dir: await freshDir() });
    const long = "x".repeat(200_000);
    await Promise.all(
      [0, 1, 2, 3, 4].map((i) => writer.append([0, 1].map((j) => ({ ...record(i, j, 1), answer: long })))),
    );
    const lines = (await readFile(writer.resultsPath, "utf8")).trimEnd().split("\n");
    expect(lines.map((l) => JSON.parse(l).example_id)).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4, 4]);
  });

  it("replaces metadata.json atomically, leaving no temporary file", async () => {
    const writer = await RunWriter.open({ dir: await freshDir() });
    await Promise.all([
      writer.writeMetadata({ ...meta, status: "running" }),
      writer.writeMetadata({ ...meta, status: "complete", avg_reward: 0.75 }),
    ]);
    const saved = JSON.parse(await readFile(writer.metadataPath, "utf8"));
    expect(saved).toMatchObject({ env_id: "echo", status: "complete", avg_reward: 0.75 });
    expect((await readdir(writer.dir)).sort()).toEqual(["metadata.json", "results.jsonl", "vf.lock"]);
    await writer.close();
    expect((await readdir(writer.dir)).sort()).toEqual(["metadata.json", "results.jsonl"]);
  });

  it("will not append to a folder that already holds rows unless resuming", async () => {
    const dir = await freshDir();
    const first = await RunWriter.open({ dir });
    await first.append([record(0, 0, 1)]);
    await first.close();
    await expect(RunWriter.open({ dir })).rejects.toThrow(UserError);
    await expect(RunWriter.open({ dir })).rejects.toThrow(/already holds rows.*resume this one/);
    const resumed = await RunWriter.open({ dir, resume: true });
    await resumed.append([record(0, 1, 0)]);
    expect((await readFile(resumed.resultsPath, "utf8")).trimEnd().split("\n")).toHaveLength(2);
  });

  it("after a kill mid-write, readers skip the torn line and a resumed writer cuts it off", async () => {
    const dir = await freshDir();
    const writer = await RunWriter.open({ dir });
    await writer.writeMetadata({ ...meta, status: "running" });
    await writer.append([record(0, 0, 1), record(0, 1, 1)]);
    // The process died while writing the next batch: half a row and no newline.
    await appendFile(writer.resultsPath, JSON.stringify(record(1, 0, 1)).slice(0, 40));
    await writer.close();

    const crashed = await readRun(dir);
    expect(crashed.records).toHaveLength(2);
    expect(crashed.warnings).toEqual([
      expect.objectContaining({ line: 3, message: expect.stringMatching(/cut short/) }),
    ]);

    const resumed = await RunWriter.open({ dir, resume: true });
    await resumed.append([record(1, 0, 0), record(1, 1, 1)]);
    const after = await readRun(dir);
    expect(after.warnings).toEqual([]);
    expect(after.records.map((r) => [r.example_id, r.rollout_index, r.reward])).toEqual([
      [0, 0, 1],
      [0, 1, 1],
      [1, 0, 0],
      [1, 1, 1],
    ]);
  });

  it("does not glue a new row onto a whole row that lost only its newline", async () => {
    const dir = await freshDir();
    const first = await RunWriter.open({ dir });
    await first.writeMetadata(meta);
    await first.close();
    await writeFile(join(dir, "results.jsonl"), JSON.stringify(record(0, 0, 1)));
    await (await RunWriter.open({ dir, resume: true })).append([record(0, 1, 0)]);
    expect((await readRun(dir)).records.map((r) => r.rollout_index)).toEqual([0, 1]);
  });
});
