/**
 * The web pages in headless Chromium against a real Hub: list and search, an environment's page
 * (README, install, versions, leaderboard chart), a report's rollout browser, the account page's keys,
 * and the browser approval of `vf login`. Screenshots go to packages/hub/test-output/.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HubClient } from "../client/hub-client.ts";
import { loginWithBrowser } from "../client/login.ts";
import { pushReport } from "../client/push-report.ts";
import { contentHash } from "../package/content-hash.ts";
import { type RunningHub, startHub } from "../server/start-hub.ts";
import { writeSampleRun } from "../testing/sample-run.ts";
import { samplePackage, sampleTarball } from "../testing/test-hub.ts";
import { launchTestBrowser, SCREENSHOT_DIR, type TestBrowser } from "./test-support.ts";

const README = `# Grade-school math

Solve word problems with a **calculator** tool.

- 8k training problems
- exact-match reward

<script>document.title = "pwned"</script>

[click me](javascript:alert(1)) and [docs](https://example.org/docs)

\`\`\`ts
const env = loadEnvironment({ split: "test" });
\`\`\`
`;

const root = mkdtempSync(join(tmpdir(), "vf-web-"));
let hub: RunningHub;
let client: HubClient;
let browser: TestBrowser;
let page: Page;
let reportId = 0;

beforeAll(async () => {
  process.env.XDG_CONFIG_HOME = join(root, "config");
  hub = await startHub({ dataDir: join(root, "hub"), port: 0 });
  client = new HubClient({ url: hub.url, apiKey: hub.bootstrap!.apiKey });
  const files = { "README.md": README };
  await client.pushTarball("admin", "gsm8k", sampleTarball("gsm8k", "1.0.0", files));
  await client.pushTarball(
    "admin",
    "gsm8k",
    sampleTarball("gsm8k", "1.1.0", { ...files, "data.jsonl": "{}\n" }),
  );
  await client.pushTarball("admin", "wordle", sampleTarball("wordle", "0.3.0"));
  await client.pushTarball("admin", "private-lab", sampleTarball("private-lab"), { visibility: "private" });
  const hash = contentHash(samplePackage("gsm8k", "1.1.0", { ...files, "data.jsonl": "{}\n" }));
  const runs: [string, number[]][] = [
    ["qwen3-0.6b", [0, 1, 0, 0, 1, 0]],
    ["llama-3.2-1b-instruct", [1, 1, 0, 1, 0, 1]],
    ["gpt-4.1-mini", [1, 1, 1, 1, 0, 1]],
  ];
  for (const [model, rewards] of runs) {
    const dir = writeSampleRun({
      dir: join(root, "runs", model),
      envId: "admin/gsm8k",
      model,
      runId: `run-${model}`,
      rewards,
    });
    reportId = (await pushReport({ client, runDir: dir, contentHash: hash })).report.id;
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

async function signIn(password: string): Promise<void> {
  await page.goto(`${hub.url}/login`);
  await page.fill('input[name="name"]', "admin");
  await page.fill('input[name="password"]', password);
  await Promise.all([page.waitForURL(`${hub.url}/`), page.click("button")]);
}

describe("web pages", () => {
  it("lists public environments and searches them", async () => {
    await page.goto(hub.url);
    expect(await page.locator("tbody tr").count()).toBe(2);
    expect(await page.textContent("body")).not.toContain("private-lab");
    await shot("env-list");
    await page.fill('input[name="q"]', "wordle");
    await Promise.all([page.waitForURL(/q=wordle/), page.press('input[name="q"]', "Enter")]);
    expect(await page.locator("tbody tr").allTextContents()).toEqual([
      expect.stringContaining("admin/wordle"),
    ]);
  });

  it("shows an environment: README rendered safely, install commands, versions, leaderboard chart", async () => {
    await page.goto(`${hub.url}/admin/gsm8k`);
    expect(await page.textContent(".readme h1")).toBe("Grade-school math");
    expect(await page.title()).toBe("admin/gsm8k · vf Hub");
    expect(await page.textContent(".readme")).toContain('<script>document.title = "pwned"</script>');
    expect(await page.locator(".readme script").count()).toBe(0);
    expect(await page.locator('.readme a[href^="javascript"]').count()).toBe(0);
    expect(await page.getAttribute('.readme a[href="https://example.org/docs"]', "rel")).toContain(
      "noopener",
    );
    expect(await page.textContent("body")).toContain("vf env install admin/gsm8k");
    expect(await page.textContent("body")).toContain(
      `npm install @admin/gsm8k --@admin:registry=${hub.url}/npm/`,
    );
    expect(await page.locator('svg[aria-label="Mean reward by model"] rect').count()).toBe(3);
    const models = await page
      .locator(".card:has(h2:text('Leaderboard')) tbody tr td:nth-child(2)")
      .allTextContents();
    expect(models).toEqual(["gpt-4.1-mini", "llama-3.2-1b-instruct", "qwen3-0.6b"]);
    await shot("env-page");
  });

  it("browses a report's rollouts with their messages and tool calls", async () => {
    await page.goto(`${hub.url}/reports/${reportId}`);
    expect(await page.textContent("h1")).toBe(`Report #${reportId}`);
    expect(await page.textContent("body")).toContain("gpt-4.1-mini");
    expect(await page.locator("details").count()).toBe(6);
    await page.click("details:first-of-type summary");
    const opened = page.locator("details[open]").first();
    expect(await opened.textContent()).toContain("calculator");
    expect(await opened.textContent()).toContain("The answer is 0.");
    // The rollout as vf view --web shows it (the shared renderer): the result named after its call, metrics.
    expect(await opened.locator(".msg.tool .role").first().textContent()).toContain("calculator");
    expect(await opened.locator("table.metrics th").allTextContents()).toEqual(["correct"]);
    await shot("report-page");
  });

  it("opens an owner's page from an environment: environments, reports and leaderboard positions", async () => {
    await page.goto(`${hub.url}/admin/gsm8k`);
    await Promise.all([page.waitForURL(`${hub.url}/admin`), page.click("h1 a")]);
    expect(await page.textContent("h1")).toBe("admin");
    expect(await page.title()).toBe("admin · vf Hub");
    const cells = (selector: string) =>
      page
        .locator(selector)
        .allTextContents()
        .then((texts) => texts.map((text) => text.replace(/\s+/g, " ").trim()));
    expect(await cells("#environments tbody td")).toEqual([
      "gsm8k The gsm8k environment",
      "1.1.0",
      "wordle The wordle environment",
      "0.3.0",
    ]);
    expect(await page.locator("#reports tbody tr").count()).toBe(3);
    expect((await cells("#reports tbody tr:first-child td")).slice(1, 5)).toEqual([
      "admin/gsm8k@1.1.0",
      "gpt-4.1-mini",
      "defaults",
      "0.833",
    ]);
    expect(await cells("#ranks tbody td")).toEqual(["admin/gsm8k", "defaults", "#1 of 3", "0.833"]);
    await shot("owner-page");
    await page.click("#ranks tbody a:has-text('0.833')");
    expect(await page.textContent("h1")).toBe(`Report #${reportId}`);
  });

  it("hides a private environment from a visitor who is not signed in", async () => {
    const response = await page.goto(`${hub.url}/admin/private-lab`);
    expect(response?.status()).toBe(404);
    expect(await page.textContent("h1")).toBe("Not found");
    await shot("not-found");
  });

  it("signs in, creates a key shown once, and revokes it on the account page", async () => {
    await signIn(hub.bootstrap!.password);
    await page.goto(`${hub.url}/account`);
    await page.fill('input[name="name"]', "laptop");
    await page.click("text=Create key");
    const key = (await page.textContent("#new-key"))!.trim();
    expect(key).toMatch(/^vf_/);
    await shot("account-new-key");
    expect((await new HubClient({ url: hub.url, apiKey: key }).whoami()).user.name).toBe("admin");
    await page.goto(`${hub.url}/account`);
    expect(await page.content()).not.toContain(key);
    const row = page.locator("tr", { hasText: "laptop" });
    await row.locator("text=Revoke").click();
    await page.waitForURL(`${hub.url}/account`);
    expect(await page.locator("tr", { hasText: "laptop" }).textContent()).toContain("revoked");
    await expect(new HubClient({ url: hub.url, apiKey: key }).whoami()).rejects.toMatchObject({
      code: "unauthorized",
    });
    await shot("account-page");
  });

  it("approves a vf login in the browser; the CLI side receives a working key", async () => {
    const result = await loginWithBrowser({
      url: hub.url,
      clientName: "vf on test-machine",
      onCode: async (start) => {
        await page.goto(start.verification_url);
        expect(await page.textContent(".secret")).toBe(start.user_code);
        await shot("login-approve");
        await page.click(`button[value="approve"]`);
        await page.waitForSelector("text=Login approved");
      },
    });
    expect(result.user).toBe("admin");
    expect((await HubClient.fromEnvironment({ url: hub.url }).whoami()).key?.name).toBe(
      "vf login: vf on test-machine",
    );
  });
});
