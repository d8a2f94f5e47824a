/**
 * Runs of one environment with different environment arguments, in headless Chromium against a real
 * Hub: the environment's page ranks them on separate leaderboards (the defaults first) and lists each
 * report's arguments, a report's page shows them, and an owner's page ranks them apart.
 * Screenshots go to packages/hub/test-output/.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HubClient } from "../client/hub-client.ts";
import { pushReport } from "../client/push-report.ts";
import { contentHash } from "../package/content-hash.ts";
import { type RunningHub, startHub } from "../server/start-hub.ts";
import { writeSampleRun } from "../testing/sample-run.ts";
import { samplePackage, sampleTarball } from "../testing/test-hub.ts";
import { launchTestBrowser, SCREENSHOT_DIR, type TestBrowser } from "./test-support.ts";

const root = mkdtempSync(join(tmpdir(), "vf-web-args-"));
let hub: RunningHub;
let browser: TestBrowser;
let page: Page;
const reportIds: Record<string, number> = {};

beforeAll(async () => {
  hub = await startHub({ dataDir: join(root, "hub"), port: 0 });
  const client = new HubClient({ url: hub.url, apiKey: hub.bootstrap!.apiKey });
  await client.pushTarball("admin", "stories", sampleTarball("stories"));
  const runs: [string, string, number[], Record<string, unknown>][] = [
    ["default-a", "model-a", [1, 0, 0, 0], {}],
    ["default-b", "model-b", [1, 1, 0, 0], {}],
    ["no-story-a", "model-a", [1, 1, 1, 1], { story: false }],
  ];
  for (const [runId, model, rewards, envArgs] of runs) {
    const runDir = writeSampleRun({
      dir: join(root, runId),
      envId: "admin/stories",
      model,
      runId,
      rewards,
      envArgs,
    });
    const pushed = await pushReport({ client, runDir, contentHash: contentHash(samplePackage("stories")) });
    reportIds[runId] = pushed.report.id;
  }
  browser = await launchTestBrowser();
  page = await browser.context.newPage();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await hub?.close();
  rmSync(root, { recursive: true, force: true });
});

const shot = (name: string) => page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
const texts = (selector: string) =>
  page
    .locator(selector)
    .allTextContents()
    .then((all) => all.map((text) => text.replace(/\s+/g, " ").trim()));

describe("runs with other environment arguments", () => {
  it("ranks them on a leaderboard of their own under the defaults', and lists each report's arguments", async () => {
    await page.goto(`${hub.url}/admin/stories`);
    expect(await texts(".board h3")).toEqual([
      "Environment arguments: defaults",
      "Environment arguments: story=false",
    ]);
    expect(await texts(".board:nth-of-type(1) tbody td:nth-child(2)")).toEqual(["model-b", "model-a"]);
    expect(await texts(".board:nth-of-type(2) tbody td:nth-child(2)")).toEqual(["model-a"]);
    expect(await texts(".board:nth-of-type(2) tbody td:nth-child(3)")).toEqual(["1.000"]);
    expect(await page.locator('.board svg[aria-label="Mean reward by model"]').count()).toBe(2);
    const argsOf = (id: number) =>
      texts(`.card:has(h2:text('Reports')) tr:has(a[href="/reports/${id}"]) td:nth-child(4)`);
    expect(await argsOf(reportIds["no-story-a"]!)).toEqual(["story=false"]);
    expect(await argsOf(reportIds["default-a"]!)).toEqual(["defaults"]);
    await shot("env-page-args");
  });

  it("shows a report's environment arguments on its page", async () => {
    await page.goto(`${hub.url}/reports/${reportIds["no-story-a"]}`);
    expect(await texts("#env-args")).toEqual(["story=false"]);
    await shot("report-page-args");
    await page.goto(`${hub.url}/reports/${reportIds["default-b"]}`);
    expect(await texts("#env-args")).toEqual(["defaults"]);
  });

  it("ranks an owner's best report per set of arguments on their page", async () => {
    await page.goto(`${hub.url}/admin`);
    expect(await texts("#ranks tbody td")).toEqual([
      ...["admin/stories", "defaults", "#1 of 2", "0.500"],
      ...["admin/stories", "story=false", "#1 of 1", "1.000"],
    ]);
    await shot("owner-page-args");
  });
});
