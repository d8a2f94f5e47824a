/**
 * Tasksets on the Hub, against a real Hub on PGlite: a package of `"kind": "taskset"` is recorded and
 * shown as one (the API's kind, a "taskset" badge on the list, owner and environment pages, an eval
 * command that names a harness), and reports of agent runs keep their harness: the leaderboard ranks
 * each model and harness as one line, in headless Chromium as in the API. An environment beside it
 * keeps its pages as they were (no badge, no harness column).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HubClient } from "../client/hub-client.ts";
import { pushReport } from "../client/push-report.ts";
import { contentHash, type PackageFile } from "../package/content-hash.ts";
import { packTarball } from "../package/package-tarball.ts";
import { type RunningHub, startHub } from "../server/start-hub.ts";
import { writeSampleRun } from "../testing/sample-run.ts";
import { samplePackage, sampleTarball } from "../testing/test-hub.ts";
import { launchTestBrowser, SCREENSHOT_DIR, type TestBrowser } from "./test-support.ts";

/** A sample package whose `vf` field says it is a taskset. */
function tasksetPackage(name: string, version: string): PackageFile[] {
  return samplePackage(name, version).map((file) => {
    if (file.path !== "package.json") return file;
    const json = JSON.parse(file.data.toString());
    json.vf = { ...json.vf, kind: "taskset", description: "Bugs to fix, scored by hidden tests" };
    return { path: file.path, data: Buffer.from(`${JSON.stringify(json, null, 2)}\n`) };
  });
}

const root = mkdtempSync(join(tmpdir(), "vf-taskset-pages-"));
let hub: RunningHub;
let client: HubClient;
let browser: TestBrowser;
let page: Page;
const reports: Record<string, number> = {};

beforeAll(async () => {
  process.env.XDG_CONFIG_HOME = join(root, "config");
  hub = await startHub({ dataDir: join(root, "hub"), port: 0 });
  client = new HubClient({ url: hub.url, apiKey: hub.bootstrap!.apiKey });
  const taskset = tasksetPackage("bugfix", "0.2.0");
  await client.pushTarball("admin", "bugfix", packTarball(taskset));
  await client.pushTarball("admin", "echo", sampleTarball("echo"));
  const runs: [string, string, string | null, number[]][] = [
    ["bash-small", "small-model", "bash", [1, 0, 0, 0]],
    ["claude-small", "small-model", "claude-code", [1, 1, 1, 0]],
    ["bash-large", "large-model", "bash", [1, 1, 0, 0]],
  ];
  for (const [runId, model, harness, rewards] of runs) {
    const dir = writeSampleRun({
      dir: join(root, "runs", runId),
      envId: "admin/bugfix",
      model,
      runId,
      rewards,
      ...(harness ? { agent: { harness, runtime: "local" } } : {}),
    });
    reports[runId] = (await pushReport({ client, runDir: dir, contentHash: contentHash(taskset) })).report.id;
  }
  const plain = writeSampleRun({
    dir: join(root, "runs", "echo"),
    envId: "admin/echo",
    model: "small-model",
    runId: "echo-run",
    rewards: [1, 0],
  });
  reports.echo = (
    await pushReport({ client, runDir: plain, contentHash: contentHash(samplePackage("echo")) })
  ).report.id;
  browser = await launchTestBrowser();
  page = await browser.context.newPage();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await hub?.close();
  rmSync(root, { recursive: true, force: true });
});

const shot = (name: string) => page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });

/** The texts of the cells `selector` matches, whitespace collapsed. */
const cells = (selector: string) =>
  page
    .locator(selector)
    .allTextContents()
    .then((texts) => texts.map((text) => text.replace(/\s+/g, " ").trim()));

describe("a taskset through the API", () => {
  it("is recorded as a taskset in lists, its info and each version; an environment stays one", async () => {
    const [info, list, version, echo, tasksets, environments] = await Promise.all([
      client.envInfo("admin", "bugfix"),
      client.listEnvs(),
      client.version("admin", "bugfix", "0.2.0"),
      client.envInfo("admin", "echo"),
      client.listEnvs({ kind: "taskset" }),
      client.listEnvs({ kind: "environment", q: "echo" }),
    ]);
    expect(info).toMatchObject({ id: "admin/bugfix", kind: "taskset", latest: { kind: "taskset" } });
    expect(version.kind).toBe("taskset");
    expect(list.items.map((e) => [e.id, e.kind])).toEqual([
      ["admin/echo", "environment"],
      ["admin/bugfix", "taskset"],
    ]);
    expect(echo.kind).toBe("environment");
    expect(tasksets.items.map((e) => e.id)).toEqual(["admin/bugfix"]);
    expect(environments.items.map((e) => e.id)).toEqual(["admin/echo"]);
    await expect(client.listEnvs({ kind: "agent" as "taskset" })).rejects.toMatchObject({
      code: "validation_failed",
    });
  });

  it("keeps each report's harness, and ranks a model through each harness as its own line", async () => {
    const report = await client.report(reports["claude-small"]!);
    expect(report).toMatchObject({ harness: "claude-code", metadata: { runtime: "local" } });
    expect((await client.report(reports.echo!)).harness).toBeNull();
    const board = await client.leaderboard("admin", "bugfix");
    expect(board.groups).toHaveLength(1);
    expect(board.groups[0]!.entries.map((e) => [e.model, e.harness, e.best_reward])).toEqual([
      ["small-model", "claude-code", 0.75],
      ["large-model", "bash", 0.5],
      ["small-model", "bash", 0.25],
    ]);
  });
});

describe("a taskset's web pages", () => {
  it("badges the taskset in the list, and not the environment", async () => {
    await page.goto(hub.url);
    const rows = await cells("tbody tr td:first-child");
    expect(rows).toEqual([
      expect.stringMatching(/^admin\/echo The echo environment$/),
      expect.stringMatching(/^admin\/bugfix taskset Bugs to fix/),
    ]);
    expect(await page.locator(".badge.taskset").count()).toBe(1);
    await shot("taskset-list");
    await Promise.all([page.waitForURL(`${hub.url}/?kind=taskset`), page.click("#kinds a:text('tasksets')")]);
    expect(await cells("tbody tr td:first-child")).toEqual([expect.stringMatching(/^admin\/bugfix taskset/)]);
    expect(await page.textContent("#kinds strong")).toBe("tasksets");
    expect(await page.textContent("h1")).toBe("Tasksets");
  });

  it("shows the taskset's page: badge, an eval command with a harness, a leaderboard by model and harness", async () => {
    await page.goto(`${hub.url}/admin/bugfix`);
    expect(await page.textContent("h1 .badge.taskset")).toBe("taskset");
    expect(await page.textContent("#eval-command")).toBe("vf eval admin/bugfix --harness bash");
    const board = ".card:has(h2:text('Leaderboard')) table";
    expect(await cells(`${board} thead th`)).toEqual([
      "#",
      "Model",
      "Harness",
      "Best",
      "Mean",
      "Reports",
      "",
    ]);
    const lines = await page.locator(`${board} tbody tr`).all();
    const shown = await Promise.all(
      lines.map(async (line) => (await line.locator("td").allTextContents()).slice(1, 4)),
    );
    expect(shown).toEqual([
      ["small-model", "claude-code", "0.750"],
      ["large-model", "bash", "0.500"],
      ["small-model", "bash", "0.250"],
    ]);
    expect(await page.locator('svg[aria-label="Mean reward by model"] rect').count()).toBe(3);
    expect(await cells(".card:has(h2:text('Reports')) thead th")).toContain("Harness");
    await shot("taskset-page");
  });

  it("names the harness and runtime on an agent run's report page", async () => {
    await page.goto(`${hub.url}/reports/${reports["claude-small"]}`);
    expect((await page.textContent("#harness"))?.replace(/\s+/g, " ").trim()).toBe(
      "claude-code in the local runtime",
    );
    await shot("taskset-report");
  });

  it("badges it on the owner's page, with the harness of each report", async () => {
    await page.goto(`${hub.url}/admin`);
    expect(await cells("#environments tbody td:first-child")).toEqual([
      "bugfix taskset Bugs to fix, scored by hidden tests",
      "echo The echo environment",
    ]);
    expect(await cells("#reports tbody td:nth-child(3)")).toEqual([
      "small-model",
      "large-model through bash",
      "small-model through claude-code",
      "small-model through bash",
    ]);
  });

  it("leaves an environment's page as it was: no badge, no harness column, vf eval without one", async () => {
    await page.goto(`${hub.url}/admin/echo`);
    expect(await page.locator(".badge.taskset").count()).toBe(0);
    expect(await page.textContent("#eval-command")).toBe("vf eval admin/echo");
    expect(await cells(".card:has(h2:text('Leaderboard')) thead th")).toEqual([
      "#",
      "Model",
      "Best",
      "Mean",
      "Reports",
      "",
    ]);
  });
});
