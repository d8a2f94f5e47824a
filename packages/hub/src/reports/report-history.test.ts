// The Hub takes reports of runs saved by every verifiers release, not only today's layout: each
// historical-shape fixture of core's reader (one per release that changed the files) and the real
// verifiers outputs are pushed as reports, and the Hub holds every rollout with the mean reward
// recomputed from the rows (0.1.6 saved a 0.0 placeholder), on the API and on the report's page.
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readRun } from "@vf-rl/core/results";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ReportRow } from "../api/schemas/report-schemas.ts";
import { HubClient } from "../client/hub-client.ts";
import { pushReport } from "../client/push-report.ts";
import { contentHash } from "../package/content-hash.ts";
import { type RunningHub, startHub } from "../server/start-hub.ts";
import { samplePackage, sampleTarball } from "../testing/test-hub.ts";

// Opening an in-memory database and hashing passwords take seconds of CPU on a loaded 2-core machine.
vi.setConfig({ hookTimeout: 120_000, testTimeout: 120_000 });

// The fixtures are data files of core's tests, read in place (they are not part of its published API).
const fixtures = fileURLToPath(new URL("../../../core/src/results/fixtures/", import.meta.url));
const historical = readdirSync(fixtures).filter(
  (name) => name.startsWith("verifiers-0") && existsSync(join(fixtures, name, "metadata.json")),
);
// Results verifiers saved in layouts vf does not read (a dataset folder, v1 traces): refused before upload.
const foreign = readdirSync(fixtures).filter(
  (name) => name.startsWith("verifiers-0") && !historical.includes(name),
);
const outputs = join(fixtures, "verifiers-outputs", "evals");
const realRuns = readdirSync(outputs).flatMap((envModel) =>
  readdirSync(join(outputs, envModel)).map((runId) => join(envModel, runId)),
);

const root = mkdtempSync(join(tmpdir(), "vf-report-history-"));
let hub: RunningHub;
let client: HubClient;
const hash = contentHash(samplePackage("arith"));

beforeAll(async () => {
  process.env.VF_HOME = join(root, "vf-home");
  hub = await startHub({ dataDir: join(root, "hub"), port: 0 });
  client = new HubClient({ url: hub.url, apiKey: hub.bootstrap!.apiKey });
  await client.pushTarball("admin", "arith", sampleTarball("arith"));
});
afterAll(async () => {
  await hub.close();
  rmSync(root, { recursive: true, force: true });
});

/** Pushes the run in `dir` and reads back what the Hub holds of it. */
async function pushAndRead(dir: string) {
  const pushed = await pushReport({
    client,
    runDir: dir,
    env: "admin/arith",
    contentHash: hash,
    chunkRows: 3,
  });
  const rows: ReportRow[] = [];
  let cursor: string | null = null;
  do {
    const page = await client.reportRows(pushed.report.id, { limit: 100, ...(cursor ? { cursor } : {}) });
    rows.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor);
  const page = await fetch(`${hub.url}/reports/${pushed.report.id}`);
  return { report: pushed.report, rows, page: { status: page.status, text: await page.text() } };
}

describe("reports of runs in every historical verifiers shape", () => {
  it("has the historical shapes to push", () => {
    expect(historical).toEqual(
      expect.arrayContaining([
        "verifiers-0.1.2.post1",
        "verifiers-0.1.3",
        "verifiers-0.1.6",
        "verifiers-0.2",
      ]),
    );
    expect(foreign.sort()).toEqual(["verifiers-0.1.2", "verifiers-0.2-v1"]);
    expect(realRuns.length).toBeGreaterThanOrEqual(4);
  });

  it.each(historical)(
    "holds every rollout of a run saved by %s, with the mean reward of its rows",
    async (folder) => {
      const { report, rows, page } = await pushAndRead(join(fixtures, folder));
      expect(report).toMatchObject({
        status: "complete",
        row_count: 4,
        rows_received: 4,
        model: "gpt-4.1-mini",
      });
      expect(report.avg_reward).toBe(0.75);
      expect(rows.map((r) => [r.row.example_id, r.row.rollout_index, r.row.reward])).toEqual([
        [0, 0, 1],
        [0, 1, 0],
        [1, 0, 1],
        [1, 1, 1],
      ]);
      expect(page.status).toBe(200);
      expect(page.text).toContain("<td>0.7500</td>");
    },
  );

  it.each(realRuns)("holds every rollout of the verifiers output %s", async (run) => {
    const dir = join(outputs, run);
    const { records } = await readRun(dir);
    const { report, rows } = await pushAndRead(dir);
    expect(report).toMatchObject({
      status: "complete",
      row_count: records.length,
      rows_received: records.length,
    });
    const mean = records.reduce((sum, r) => sum + r.reward, 0) / records.length;
    expect(report.avg_reward).toBeCloseTo(mean, 9);
    expect(rows.map((r) => r.row.reward)).toEqual(records.map((r) => r.reward));
  });

  it.each(foreign)("refuses %s before sending anything, saying what it is and what to do", async (folder) => {
    const reports = async () => (await client.listReports("admin", "arith", { limit: 100 })).items.length;
    const before = await reports();
    const pushed = pushReport({
      client,
      runDir: join(fixtures, folder),
      env: "admin/arith",
      contentHash: hash,
    });
    await expect(pushed).rejects.toThrow(/is a (Hugging Face dataset folder|run of verifiers' v1 eval)/);
    await expect(pushed).rejects.toThrow(/evaluate again with vf eval -s/);
    expect(await reports()).toBe(before);
  });
});
