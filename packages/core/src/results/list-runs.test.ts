import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { UserError } from "../errors.ts";
import { RolloutRecord } from "../records/rollout-record.ts";
import { RunMetadata } from "../records/run-metadata.ts";
import { listRuns } from "./list-runs.ts";
import { runDirectory } from "./run-directory.ts";
import { RunWriter } from "./run-writer.ts";

const fixtures = fileURLToPath(new URL("./fixtures/verifiers-outputs/", import.meta.url));

const record = (exampleId: number, reward: number) =>
  RolloutRecord.parse({
    example_id: exampleId,
    prompt: [{ role: "user", content: "q" }],
    completion: [{ role: "assistant", content: "a" }],
    reward,
  });

describe("listRuns", () => {
  it("lists every verifiers fixture run, newest first, with rewards from the rows", async () => {
    const runs = await listRuns(fixtures);
    const byEnv = Object.fromEntries(runs.map((run) => [run.type === "run" ? run.envId : run.dir, run]));
    expect(Object.keys(byEnv).sort()).toEqual(["math-python", "tool-test", "wiki-search", "wordle"]);
    expect(byEnv["math-python"]).toMatchObject({
      type: "run",
      runId: "578769a7",
      model: "gpt-4.1-mini",
      date: "2025-09-30T00:47:48",
      rows: 15,
      numExamples: 5,
      rolloutsPerExample: 3,
      status: "complete",
    });
    expect(byEnv["wiki-search"]).toMatchObject({ rows: 50, avgReward: 0.9, model: "gpt-5" });
    // Its metadata says avg_reward 0 (written before scoring); the rows say 1.
    expect(byEnv["tool-test"]).toMatchObject({ rows: 15, avgReward: 1 });
    const dated = runs.filter((run) => run.type === "run" && run.date.startsWith("2025"));
    expect(dated.map((run) => run.type === "run" && run.envId)).toEqual(["wiki-search", "math-python"]);
  });

  it("accepts the evals folder, one env--model folder or one run folder", async () => {
    expect(await listRuns(join(fixtures, "evals"))).toHaveLength(4);
    const wordle = await listRuns(join(fixtures, "evals/wordle--gpt-4.1-mini"));
    expect(wordle.map((run) => run.runId)).toEqual(["816ec3b0"]);
    const single = await listRuns(join(fixtures, "evals/wordle--gpt-4.1-mini/816ec3b0"));
    expect(single).toMatchObject([{ type: "run", envId: "wordle", rows: 15 }]);
  });

  it("shows the reward recomputed from the rows, and a run as running only while its writer lives", async () => {
    const outputDir = await mkdtemp(join(tmpdir(), "vf-list-"));
    const meta = RunMetadata.parse({ env_id: "echo", model: "m", num_examples: 4, rollouts_per_example: 1 });

    const done = await RunWriter.open({
      dir: runDirectory({ outputDir, envId: "echo", model: "m", runId: "done0001" }),
    });
    await done.append([record(0, 1), record(1, 1)]);
    // A stale or placeholder average in the metadata is not what the listing shows.
    await done.writeMetadata({ ...meta, num_examples: 2, avg_reward: 0.5, date: "2026-01-01T00:00:00Z" });
    await done.close();

    const live = await RunWriter.open({
      dir: runDirectory({ outputDir, envId: "echo", model: "m", runId: "live0001" }),
    });
    await live.writeMetadata({ ...meta, status: "running", date: "2026-01-02T00:00:00Z" });
    await live.append([record(0, 1), record(1, 0), record(2, 0)]);

    const runs = await listRuns(outputDir);
    expect(runs).toMatchObject([
      { runId: "live0001", status: "running", rows: 3, avgReward: 1 / 3 },
      { runId: "done0001", status: "complete", rows: 2, avgReward: 1 },
    ]);
    // Its writer gone without saying "complete" (as after SIGKILL): interrupted, not running forever.
    await live.close();
    expect(await listRuns(outputDir)).toMatchObject([{ runId: "live0001", status: "interrupted" }, {}]);
  });

  it("reports a broken run folder instead of failing the whole listing", async () => {
    const outputDir = await mkdtemp(join(tmpdir(), "vf-list-"));
    const broken = join(outputDir, "evals", "echo--m", "bad00001");
    await mkdir(broken, { recursive: true });
    await writeFile(join(broken, "results.jsonl"), "");
    const runs = await listRuns(outputDir);
    expect(runs).toEqual([
      {
        type: "unreadable",
        dir: broken,
        runId: "bad00001",
        message: expect.stringContaining("metadata.json does not exist"),
      },
    ]);
  });

  it("says what to pass when the folder does not exist", async () => {
    await expect(listRuns(join(tmpdir(), "vf-no-such-folder"))).rejects.toThrow(UserError);
    await expect(listRuns(join(tmpdir(), "vf-no-such-folder"))).rejects.toThrow(
      /the output folder that holds evals/,
    );
  });

  it("finds nothing in an empty output folder", async () => {
    expect(await listRuns(await mkdtemp(join(tmpdir(), "vf-list-")))).toEqual([]);
  });
});
