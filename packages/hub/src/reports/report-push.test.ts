import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { HubClient } from "../client/hub-client.ts";
import { pushReport } from "../client/push-report.ts";
import { contentHash } from "../package/content-hash.ts";
import { type RunningHub, startHub } from "../server/start-hub.ts";
import { writeSampleRun } from "../testing/sample-run.ts";
import { samplePackage, sampleTarball } from "../testing/test-hub.ts";

// Opening an in-memory database and hashing passwords take seconds of CPU on a loaded 2-core machine.
vi.setConfig({ hookTimeout: 120_000, testTimeout: 120_000 });

const root = mkdtempSync(join(tmpdir(), "vf-reports-"));
let hub: RunningHub;
let client: HubClient;
const hash = contentHash(samplePackage("math"));

beforeAll(async () => {
  process.env.VF_HOME = join(root, "vf-home");
  hub = await startHub({ dataDir: join(root, "hub"), port: 0 });
  client = new HubClient({ url: hub.url, apiKey: hub.bootstrap!.apiKey });
  await client.pushTarball("admin", "math", sampleTarball("math"));
});
afterAll(async () => {
  await hub.close();
  rmSync(root, { recursive: true, force: true });
});

const run = (runId: string, model: string, rewards: number[]) =>
  writeSampleRun({ dir: join(root, "runs", runId), envId: "admin/math", model, runId, rewards });

describe("eval reports", () => {
  it("uploads a run pinned to the exact version, with model and sampling settings", async () => {
    const result = await pushReport({
      client,
      runDir: run("run-a", "gpt-small", [1, 0, 1, 1]),
      contentHash: hash,
      chunkRows: 3,
    });
    expect(result).toMatchObject({ resumedFrom: 0, sent: 4, url: `${hub.url}/reports/${result.report.id}` });
    expect(result.report).toMatchObject({
      env: "admin/math",
      version: "1.0.0",
      content_hash: hash,
      model: "gpt-small",
      sampling_args: { temperature: 0.7, max_tokens: 256 },
      status: "complete",
      rows_received: 4,
      avg_reward: 0.75,
    });
  });

  it("is idempotent per run id: a second push sends nothing", async () => {
    const again = await pushReport({ client, runDir: join(root, "runs", "run-a"), contentHash: hash });
    expect(again).toMatchObject({ sent: 0, resumedFrom: 4, report: { status: "complete" } });
    expect((await client.listReports("admin", "math")).items).toHaveLength(1);
  });

  it("resumes an interrupted upload from the rows the Hub already holds", async () => {
    const dir = run("run-b", "gpt-large", [1, 1, 0, 1, 1, 1]);
    const opened = await client.openReport({
      run_id: "run-b",
      env: "admin/math",
      content_hash: hash,
      model: "gpt-large",
      sampling_args: { temperature: 0.7, max_tokens: 256 },
      metadata: {},
      row_count: 6,
    });
    const { readRun } = await import("@vf-rl/core/results");
    const { records } = await readRun(dir);
    await client.uploadRows(opened.id, 0, records.slice(0, 2));
    await expect(client.finalizeReport(opened.id)).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringMatching(/2 of 6 rows/),
    });
    const resumed = await pushReport({ client, runDir: dir, contentHash: hash, chunkRows: 2 });
    expect(resumed).toMatchObject({
      resumedFrom: 2,
      sent: 4,
      report: { status: "complete", rows_received: 6 },
    });
    expect(resumed.report.avg_reward).toBeCloseTo(5 / 6);
  });

  it("pins to the installed environment's content hash when none is given", async () => {
    const { installEnvironment } = await import("../client/install-environment.ts");
    await installEnvironment({ client, spec: "admin/math", global: true });
    const result = await pushReport({ client, runDir: run("run-f", "gpt-tiny", [1, 0]), cwd: root });
    expect(result.report).toMatchObject({ content_hash: hash, version: "1.0.0", avg_reward: 0.5 });
  });

  it("refuses a version the Hub does not have, saying to push it first", async () => {
    await expect(
      pushReport({ client, runDir: run("run-c", "gpt-small", [0]), contentHash: "f".repeat(64) }),
    ).rejects.toMatchObject({
      code: "not_found",
      message: expect.stringMatching(/push the environment you evaluated/),
    });
  });

  it("refuses a row that is not a rollout record, naming the field", async () => {
    const opened = await client.openReport({
      run_id: "run-d",
      env: "admin/math",
      content_hash: hash,
      model: "m",
      metadata: {},
      row_count: 1,
    });
    await expect(
      client.uploadRows(opened.id, 0, [{ example_id: 0, prompt: [], completion: [] }]),
    ).rejects.toMatchObject({
      code: "validation_failed",
      details: { field: "reward" },
    });
  });

  it("ranks models on the leaderboard by best and mean reward", async () => {
    await pushReport({ client, runDir: run("run-e", "gpt-small", [0, 0, 1, 0]), contentHash: hash });
    const board = await client.leaderboard("admin", "math");
    expect(board.groups).toHaveLength(1);
    const { env_args, entries } = board.groups[0]!;
    expect(env_args).toEqual({});
    expect(entries.map((e) => [e.model, e.reports, e.best_reward])).toEqual([
      ["gpt-large", 1, 5 / 6],
      ["gpt-small", 2, 0.75],
      ["gpt-tiny", 1, 0.5],
    ]);
    expect(entries[1]!.mean_reward).toBeCloseTo(0.5);
    expect(entries[1]!.rollouts).toBe(8);
  });

  it("ranks runs with other environment arguments on boards of their own, the defaults first", async () => {
    const runWith = (runId: string, model: string, rewards: number[], envArgs: Record<string, unknown>) =>
      writeSampleRun({ dir: join(root, "runs", runId), envId: "admin/math", model, runId, rewards, envArgs });
    const storyOff = await pushReport({
      client,
      runDir: runWith("args-1", "gpt-tiny", [1, 1, 1, 1], { story: false }),
      contentHash: hash,
    });
    expect(storyOff.report.env_args).toEqual({ story: false });
    await pushReport({
      client,
      runDir: runWith("args-2", "gpt-small", [1, 0, 0, 0], { story: false, level: 2 }),
      contentHash: hash,
    });
    // The same arguments in another key order are the same set.
    await pushReport({
      client,
      runDir: runWith("args-3", "gpt-large", [0, 0, 0, 0], { level: 2, story: false }),
      contentHash: hash,
    });
    const board = await client.leaderboard("admin", "math");
    expect(board.groups.map((g) => [g.env_args, g.entries.map((e) => [e.model, e.best_reward])])).toEqual([
      [
        {},
        [
          ["gpt-large", 5 / 6],
          ["gpt-small", 0.75],
          ["gpt-tiny", 0.5],
        ],
      ],
      [
        { level: 2, story: false },
        [
          ["gpt-small", 0.25],
          ["gpt-large", 0],
        ],
      ],
      [{ story: false }, [["gpt-tiny", 1]]],
    ]);
    expect((await client.listReports("admin", "math")).items[0]!.env_args).toEqual({
      story: false,
      level: 2,
    });
  });

  it("refuses env_args in a report's metadata that are not an object", async () => {
    await expect(
      client.openReport({
        run_id: "args-4",
        env: "admin/math",
        content_hash: hash,
        model: "m",
        // As a client that does not check its own request would send it.
        metadata: JSON.parse('{"env_args": "story=false"}'),
        row_count: 0,
      }),
    ).rejects.toMatchObject({ code: "validation_failed", details: { field: "metadata.env_args" } });
  });
});
