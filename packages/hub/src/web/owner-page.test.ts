/**
 * The owner page in-process: what it lists for visitors, for the owner and for other users, ranks on
 * each environment's reports, escaping of user text, links from other pages, and the 404 page.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { contentHash, type PackageFile } from "../package/content-hash.ts";
import { packTarball } from "../package/package-tarball.ts";
import { createTestHub, jsonOf, samplePackage, type TestHub } from "../testing/test-hub.ts";

// Opening an in-memory database and hashing passwords take seconds of CPU on a loaded 2-core machine.
vi.setConfig({ hookTimeout: 120_000, testTimeout: 120_000 });

const EVIL = `<img src=x onerror=alert(1)> & "quoted"`;
let hub: TestHub;
let ada: string;
let bob: string;
let bobReportId = 0;

/** A sample package whose package.json says `description`. */
function packageWith(name: string, version: string, description: string): PackageFile[] {
  return samplePackage(name, version).map((file) => {
    if (file.path !== "package.json") return file;
    const json = { ...JSON.parse(Buffer.from(file.data).toString("utf8")), description };
    json.vf.description = description;
    return { path: file.path, data: Buffer.from(JSON.stringify(json)) };
  });
}

async function push(key: string, id: string, version: string, visibility = "public"): Promise<string> {
  const [owner, name] = id.split("/") as [string, string];
  const files = packageWith(name, version, name === "alpha" ? EVIL : `The ${name} environment`);
  const response = await hub.call("POST", `/api/v1/envs/${owner}/${name}/versions?visibility=${visibility}`, {
    key,
    body: packTarball(files),
  });
  expect(response.status).toBe(201);
  return contentHash(files);
}

/** Uploads a report of `rewards` on `env` at `hash`; finalized unless `complete` is false. */
async function report(
  key: string,
  env: string,
  hash: string,
  options: { runId: string; model: string; rewards: number[]; complete?: boolean },
): Promise<number> {
  const opened = await jsonOf(
    await hub.call("POST", "/api/v1/reports", {
      key,
      json: {
        run_id: options.runId,
        env,
        content_hash: hash,
        model: options.model,
        metadata: {},
        row_count: options.rewards.length,
      },
    }),
  );
  const id: number = opened.data.id;
  const rows = options.rewards.map((reward, i) => ({ example_id: i, prompt: [], completion: [], reward }));
  if (options.complete === false) return id;
  expect(
    (await hub.call("PUT", `/api/v1/reports/${id}/rows`, { key, json: { offset: 0, rows } })).status,
  ).toBe(200);
  expect((await hub.call("POST", `/api/v1/reports/${id}/finalize`, { key })).status).toBe(200);
  return id;
}

beforeAll(async () => {
  hub = await createTestHub();
  ada = await hub.addUser("ada");
  bob = await hub.addUser("bob");
  await hub.addUser("carol");
  await push(ada, "ada/alpha", "1.0.0");
  const alpha = await push(ada, "ada/alpha", "1.2.0");
  const hidden = await push(ada, "ada/hidden", "0.1.0", "private");
  const beta = await push(bob, "bob/beta", "2.0.0");
  await report(ada, "ada/alpha", alpha, { runId: "a1", model: "<b>small</b>", rewards: [0, 1] });
  await report(ada, "ada/alpha", alpha, { runId: "a2", model: "big", rewards: [1, 1, 1, 0] });
  await report(ada, "ada/alpha", alpha, { runId: "a3", model: "big", rewards: [1], complete: false });
  bobReportId = await report(bob, "ada/alpha", alpha, { runId: "b1", model: "big", rewards: [1, 1] });
  await report(ada, "ada/hidden", hidden, { runId: "h1", model: "big", rewards: [1] });
  await report(ada, "bob/beta", beta, { runId: "c1", model: "big", rewards: [0, 0] });
  await report(bob, "bob/beta", beta, { runId: "c2", model: "big", rewards: [1, 0] });
});
afterAll(() => hub.close());

/** The page of `path` as `key` sees it (status and HTML). */
async function page(path: string, key?: string): Promise<{ status: number; html: string }> {
  const response = await hub.call("GET", path, key ? { key } : {});
  return { status: response.status, html: await response.text() };
}

/** The text of each body row of the card with this id, tags stripped and spaces collapsed. */
function rowsOf(html: string, cardId: string): string[] {
  const start = html.indexOf(`id="${cardId}"`);
  expect(start).toBeGreaterThan(-1);
  const end = html.indexOf('<div class="card"', start);
  const card = html.slice(start, end === -1 ? undefined : end);
  const body = card.slice(card.indexOf("<tbody>"));
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) =>
    m[1]!
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ")
      .trim(),
  );
}

describe("owner page", () => {
  it("lists a visitor the owner's public environments, reports and leaderboard positions", async () => {
    const { status, html } = await page("/ada");
    expect(status).toBe(200);
    expect(html).toContain("<h1>ada</h1>");
    expect(rowsOf(html, "environments")).toEqual([
      "alpha &#60;img src=x onerror=alert(1)&#62; &#38; &#34;quoted&#34; 1.2.0",
    ]);
    const reports = rowsOf(html, "reports");
    expect(reports).toHaveLength(4);
    expect(reports[0]).toMatch(/^#\d+ bob \/ beta @2\.0\.0 big defaults 0\.000 \d{4}-\d\d-\d\d$/);
    expect(reports.slice(1).map((r) => r.replace(/^#\d+ | \d{4}-\d\d-\d\d$/g, ""))).toEqual([
      "ada / alpha @1.2.0 big defaults — uploading",
      "ada / alpha @1.2.0 big defaults 0.750",
      "ada / alpha @1.2.0 &#60;b&#62;small&#60;/b&#62; defaults 0.500",
    ]);
    expect(rowsOf(html, "ranks")).toEqual([
      "ada / alpha defaults #2 of 3 0.750",
      "bob / beta defaults #2 of 2 0.000",
    ]);
    expect(html).not.toContain("hidden");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>small");
  });

  it("shows private environments and their reports to the owner themselves, and to nobody else", async () => {
    const own = (await page("/ada", ada)).html;
    expect(rowsOf(own, "environments")).toContain("hidden private The hidden environment 0.1.0");
    expect(rowsOf(own, "reports")).toContainEqual(
      expect.stringContaining("ada / hidden @0.1.0 big defaults 1.000"),
    );
    expect(rowsOf(own, "ranks")).toContain("ada / hidden defaults #1 of 1 1.000");
    expect((await page("/ada", bob)).html).not.toContain("hidden");
  });

  it("ranks another owner's reports on the same environments", async () => {
    const { html } = await page("/bob");
    expect(rowsOf(html, "environments")).toEqual(["beta The beta environment 2.0.0"]);
    expect(rowsOf(html, "ranks")).toEqual([
      "ada / alpha defaults #1 of 3 1.000",
      "bob / beta defaults #1 of 2 0.500",
    ]);
  });

  it("shows a user with nothing pushed or reported as an empty page", async () => {
    const { status, html } = await page("/carol");
    expect(status).toBe(200);
    expect(html).toContain("No environments.");
    expect(html).toContain("No reports.");
    expect(html).toContain("No complete reports yet.");
  });

  it("answers 404 pages for unknown owners, with what was asked escaped", async () => {
    const unknown = await page("/nobody");
    expect(unknown.status).toBe(404);
    expect(unknown.html).toContain("<h1>Not found</h1>");
    expect(unknown.html).toContain("there is no user named nobody");
    const hostile = await page("/%3Cscript%3Ealert(1)%3C%2Fscript%3E");
    expect(hostile.status).toBe(404);
    expect(hostile.html).not.toContain("<script>");
    expect(hostile.html).toContain("&#60;script&#62;");
  });

  it("is linked from environment and report pages wherever an owner is shown", async () => {
    const env = (await page("/ada/alpha")).html;
    expect(env).toContain('<h1><a href="/ada">ada</a>/alpha');
    expect(env).toContain('<td><a href="/bob">bob</a></td>');
    const shown = (await page(`/reports/${bobReportId}`)).html;
    expect(shown).toContain('<a href="/ada">ada</a>/<a href="/ada/alpha">alpha</a>@1.2.0');
    expect(shown).toContain('uploaded by <a href="/bob">bob</a>');
    expect((await page("/")).html).toContain('<a href="/bob">bob</a>/<a href="/bob/beta">beta</a>');
  });
});
