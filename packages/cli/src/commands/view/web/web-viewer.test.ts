// vf view --web in headless Chromium, on real runs saved by vf eval: reverse-text against a scripted
// model twice (the second run fixes some examples and breaks others), against the built-in model with
// its token logprobs, and coding-tasks worked on by the bash harness (tool calls, a trace with three
// branches, a run ended by its turn limit). The viewer is the real binary, stopped with Ctrl-C.
import { copyFileSync, mkdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { contentText } from "@vf-rl/core";
import { type LoadedRun, readRun } from "@vf-rl/core/results";
import type { ScriptedRequest } from "@vf-rl/core/testing";
import { evalScripted, runVf } from "@vf-rl/test-support";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  evalBashRun,
  evalRunawayRun,
  evaluateBranchingRun,
  PLAN,
  startCodingModel,
  startRunawayModel,
} from "../test-support.ts";
import { launchBrowser, startViewWeb, type TestBrowser, type ViewProcess } from "./test-support.ts";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..", "..", "..");
/** Screenshots land here; VF_UPDATE_SCREENSHOTS=1 also copies the README's two into docs/images. */
const SHOTS = join(tmpdir(), "vf-view-web-screenshots");

let outputs: string;
let viewer: ViewProcess;
let browser: TestBrowser;
let page: Page;
const runs = {} as Record<"before" | "after" | "engine" | "bash" | "branching" | "runaway", LoadedRun>;

/** The example's text to reverse: its user message. */
function userText(messages: ScriptedRequest["messages"]): string {
  return contentText(messages.find((message) => message.role === "user")?.content as string);
}

// Which examples each scripted run gets wrong, by their text's length: the first run those of
// length 0 mod 3, the second those of length 1 mod 3. So, from first to second, examples of length
// 0 mod 3 get better, 1 mod 3 worse, 2 mod 3 stay the same.
const kind = (text: string) => (["better", "worse", "same"] as const)[text.length % 3]!;
const reverser = (wrongWhen: (text: string) => boolean) => (request: ScriptedRequest) => {
  const text = userText(request.messages);
  const answer = wrongWhen(text) ? "no idea" : [...text].reverse().join("");
  return `<reversed_text>\n${answer}\n</reversed_text>`;
};

async function evalReverse(wrongWhen: (text: string) => boolean): Promise<LoadedRun> {
  const run = await evalScripted("reverse-text", {
    server: { reply: reverser(wrongWhen) },
    flags: ["-n", "8", "-r", "1", "-s", "-o", outputs],
  });
  if (run.code !== 0) throw new Error(run.stderr);
  return readRun(run.summary.run_dir);
}

beforeAll(async () => {
  outputs = await mkdtemp(join(tmpdir(), "vf-view-web-"));
  runs.before = await evalReverse((text) => kind(text) === "better");
  runs.after = await evalReverse((text) => kind(text) === "worse");
  const engine = await runVf([
    "eval",
    "reverse-text",
    "-n",
    "2",
    "-S",
    '{"logprobs": true}',
    "-s",
    "-o",
    outputs,
    "--json",
  ]);
  if (engine.code !== 0) throw new Error(engine.stderr);
  runs.engine = await readRun(JSON.parse(engine.stdout).run_dir);
  const model = await startCodingModel();
  const runaway = await startRunawayModel();
  try {
    runs.bash = await readRun(await evalBashRun(outputs, model.url));
    runs.branching = await readRun(await evaluateBranchingRun(outputs, model.url));
    runs.runaway = await readRun(await evalRunawayRun(outputs, runaway.url));
  } finally {
    await Promise.all([model.close(), runaway.close()]);
  }
  viewer = await startViewWeb([outputs]);
  browser = await launchBrowser();
  page = await browser.context.newPage();
  mkdirSync(SHOTS, { recursive: true });
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await rm(outputs, { recursive: true, force: true });
});

/** The run's name in the viewer's URLs. */
const key = (run: LoadedRun) => relative(outputs, run.dir);
const runUrl = (run: LoadedRun, query = "") => `${viewer.url}run?run=${encodeURIComponent(key(run))}${query}`;
const rolloutUrl = (run: LoadedRun, index: number) =>
  `${viewer.url}rollout?run=${encodeURIComponent(key(run))}&i=${index}`;
const shownExamples = () =>
  page
    .locator("#rollouts tbody tr")
    .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute("data-example"))));

/**
 * A screenshot of the page; the README's at a smaller size, so the files stay small, scrolled to
 * show the bottom of `focus` where one is named.
 */
async function shot(name: string, readme = false, focus?: string): Promise<void> {
  const file = join(SHOTS, `${name}.png`);
  if (readme) await page.setViewportSize({ width: 1024, height: 720 });
  if (focus) await page.locator(focus).evaluate((element) => element.scrollIntoView({ block: "end" }));
  await page.screenshot({ path: file });
  if (readme) await page.setViewportSize({ width: 1280, height: 860 });
  if (readme && process.env.VF_UPDATE_SCREENSHOTS === "1")
    copyFileSync(file, join(REPO, "docs", "images", `${name}.png`));
}

describe("vf view --web", () => {
  it("lists every run with its environment, model, harness, reward and rollouts", async () => {
    await page.goto(viewer.url);
    expect(await page.title()).toBe("Runs · vf view");
    const rows = page.locator("#runs tbody tr");
    expect(await rows.count()).toBe(6);
    const bash = page.locator(`#runs tr[data-run="${key(runs.bash)}"] td`);
    const cells = (await bash.allTextContents()).map((text) => text.trim());
    expect(cells.slice(1, 4)).toEqual(["coding-tasks", "scripted", "bash"]);
    expect(cells[6]).toBe(String(runs.bash.records.length));
    const before = page.locator(`#runs tr[data-run="${key(runs.before)}"]`);
    expect(Number(await before.locator(".reward").textContent())).toBeCloseTo(
      runs.before.metadata.avg_reward,
      3,
    );
    expect(await before.locator(".rollouts").textContent()).toBe("8");
    await shot("view-web-runs");

    await page.fill("input[name=q]", "plan-then");
    await Promise.all([page.waitForURL(/q=plan-then/), page.press("input[name=q]", "Enter")]);
    expect(await rows.count()).toBe(1);
    expect(await page.textContent("#runs-shown")).toContain("1 of 6 runs");
  });

  it("narrows a run's rollouts by search, reward range, example and errors", async () => {
    const records = runs.before.records;
    const all = records.map((record) => record.example_id).sort((a, b) => a - b);
    await page.goto(runUrl(runs.before));
    expect(await shownExamples()).toEqual(all);
    const target = records[3]!;
    await page.fill("input[name=q]", contentText(target.prompt.find((m) => m.role === "user")!.content));
    await page.click("form.filters button");
    expect(await shownExamples()).toEqual([target.example_id]);

    await page.goto(runUrl(runs.before));
    await page.fill("input[name=min]", "0.99");
    await page.click("form.filters button");
    const perfect = records.filter((record) => record.reward >= 0.99).map((record) => record.example_id);
    expect(perfect.length).toBeGreaterThan(0);
    expect(perfect.length).toBeLessThan(records.length);
    expect(await shownExamples()).toEqual(perfect.sort((a, b) => a - b));
    expect(await page.textContent("#shown")).toBe(`${perfect.length} of 8 rollouts`);
    await shot("view-web-filtered");

    await page.goto(runUrl(runs.before, `&example=${target.example_id}`));
    expect(await shownExamples()).toEqual([target.example_id]);

    // A rollout opened from a filtered list steps through that list, and goes back to it.
    await page.goto(runUrl(runs.before, "&min=0.99"));
    await Promise.all([page.waitForURL(/\/rollout\?/), page.click("#rollouts tbody tr:first-child a")]);
    expect(await page.locator("#previous").count()).toBe(0);
    await Promise.all([page.waitForURL(/\/rollout\?/), page.click("#next")]);
    expect(await page.textContent("h1")).toBe(`Example ${perfect[1]} · rollout 0`);
    await Promise.all([page.waitForURL(/\/run\?/), page.click("nav.steps a:first-child")]);
    expect(await shownExamples()).toEqual(perfect);

    await page.goto(runUrl(runs.before));
    await Promise.all([page.waitForURL(/errors=1/), page.check("input[name=errors]")]);
    expect(await shownExamples()).toEqual([]);
    await page.goto(runUrl(runs.runaway, "&errors=1"));
    expect(await shownExamples()).toEqual([runs.runaway.records[0]!.example_id]);
    expect(await page.textContent("#rollouts .badge")).toBe(runs.runaway.records[0]!.trace!.errors[0]!.type);
  });

  it("shows an agent's rollout: its conversation with tool calls and results, metrics and calls", async () => {
    const index = runs.bash.records.findIndex((record) => record.reward === 1);
    const record = runs.bash.records[index]!;
    await page.goto(rolloutUrl(runs.bash, index));
    const call = page.locator(".msg.assistant .tool-call").first();
    expect(await call.locator("code").first().textContent()).toBe("bash");
    expect(await call.locator("pre").textContent()).toContain("sed -i");
    const result = page.locator(".msg.tool").first();
    expect(await result.locator(".role").textContent()).toContain("bash");
    expect(await page.locator("table.metrics th").allTextContents()).toEqual(Object.keys(record.metrics));
    expect(await page.textContent(".reward strong")).toBe("1");
    expect(await page.locator("table.calls tbody tr").count()).toBe(record.trace!.calls.length);
    expect(await page.textContent("details.tools > summary")).toBe("2 tools offered");
    expect(await page.locator("details.tools .tool > code").allTextContents()).toEqual([
      "bash",
      "write_file",
    ]);
    // The scripted model's token ids are not vf's tokenizer's: the heat map shows ids.
    const ids = record.trajectory.flatMap((step) => step.tokens?.completion_ids ?? []);
    expect(await page.locator(".tokens.ids .tok").count()).toBe(ids.length);
    expect(await page.locator(".tok").first().textContent()).toBe(String(ids[0]));
    await shot("view-web-agent");
  });

  it("shows each branch of an agent's trace, the main one open", async () => {
    await page.goto(rolloutUrl(runs.branching, 0));
    const branches = page.locator("details.branch");
    expect(await branches.count()).toBe(3);
    expect(await page.locator("details.branch[open]").count()).toBe(1);
    expect(await page.locator("details.branch[open] > summary").textContent()).toContain("(main)");
    expect(await branches.first().textContent()).toContain(PLAN);
    expect(await page.textContent(".trace")).toContain("3 branches");
    await shot("view-web-branches");
  });

  it("shows the errors that ended a rollout", async () => {
    await page.goto(rolloutUrl(runs.runaway, 0));
    const error = runs.runaway.records[0]!.trace!.errors[0]!;
    expect(await page.textContent(".errors li strong")).toBe(error.type);
    expect(await page.textContent(".errors")).toContain(error.message);
  });

  it("draws the built-in model's logprobs as a heat map, one cell per token with its text and logprob", async () => {
    const record = runs.engine.records[0]!;
    const tokens = record.trajectory[0]!.tokens!;
    await page.goto(rolloutUrl(runs.engine, 0));
    const cells = page.locator(".heatmap .tok");
    expect(await cells.count()).toBe(tokens.completion_ids.length);
    const logprobs = await cells.evaluateAll((spans) =>
      spans.map((span) => Number(span.getAttribute("data-logprob"))),
    );
    expect(logprobs).toEqual(tokens.completion_logprobs);
    expect(await cells.first().getAttribute("title")).toContain(
      `logprob ${tokens.completion_logprobs[0]!.toFixed(4)}`,
    );
    const text = (await cells.allTextContents()).join("").replaceAll("↵\n", "\n").replaceAll("·", " ");
    expect(text).toContain(contentText(record.completion[0]!.content));
    // The README's picture: the conversation's end and the heat map under it.
    await shot("view-web-rollout", true, ".logprobs");
  });

  it("diffs two runs picked in the list, example by example, with the right signs", async () => {
    await page.goto(viewer.url);
    await page.check(`input[value="${key(runs.after)}"]`);
    expect(await page.isDisabled("#compare")).toBe(true);
    await page.check(`input[value="${key(runs.before)}"]`);
    await Promise.all([page.waitForURL(/\/diff\?/), page.click("#compare")]);
    const expected = new Map(
      runs.before.records.map((record) => [
        record.example_id,
        kind(contentText(record.prompt.find((m) => m.role === "user")!.content)),
      ]),
    );
    const shown = await page
      .locator("#changes tbody tr")
      .evaluateAll((rows) => rows.map((row) => [Number(row.getAttribute("data-example")), row.className]));
    expect(new Map(shown as [number, string][])).toEqual(expected);
    const count = (k: string) => [...expected.values()].filter((v) => v === k).length;
    expect(count("better")).toBeGreaterThan(0);
    expect(count("worse")).toBeGreaterThan(0);
    expect(await page.textContent("#diff-summary")).toContain(
      `${count("better")} better · ${count("worse")} worse · ${count("same")} unchanged`,
    );
    // Worse rows first, each change negative; better ones positive.
    expect(shown[0]![1]).toBe("worse");
    for (const row of await page.locator("#changes tr.worse .change").allTextContents())
      expect(row).toMatch(/^−0\.\d+/);
    for (const row of await page.locator("#changes tr.better .change").allTextContents())
      expect(row).toMatch(/^\+0\.\d+/);
    const mean = runs.after.metadata.avg_reward - runs.before.metadata.avg_reward;
    const strong = (await page.textContent("#diff-summary strong"))!;
    expect(Number(strong.replace("−", "-").replace("+", ""))).toBeCloseTo(mean, 3);
    expect(await page.locator(".run-summary").count()).toBe(2);
    await shot("view-web-diff", true);

    await page.click("#changes tr.worse a");
    const columns = page.locator(".side > .card");
    expect(await columns.count()).toBe(2);
    expect(await columns.nth(0).textContent()).not.toContain("no idea");
    expect(await columns.nth(1).textContent()).toContain("no idea");
    await shot("view-web-compare");
  });

  it("answers 404 for a run that is not in the list", async () => {
    const response = await page.goto(`${viewer.url}run?run=${encodeURIComponent("../../etc")}`);
    expect(response?.status()).toBe(404);
    expect(await page.textContent("h1")).toBe("Cannot show this");
  });

  it("refuses a request that names another host (a page elsewhere rebinding its domain to 127.0.0.1)", async () => {
    // fetch() sends the URL's host whatever one asks; node:http sends the one given.
    const status = await new Promise<number | undefined>((resolve, reject) =>
      get(viewer.url, { headers: { host: "attacker.example" } }, (response) => {
        response.resume();
        resolve(response.statusCode);
      }).on("error", reject),
    );
    expect(status).toBe(421);
    expect((await fetch(viewer.url.replace("127.0.0.1", "localhost"))).status).toBe(200);
  });

  it("says so when --port is taken, and exits 1", async () => {
    const port = new URL(viewer.url).port;
    const result = await runVf(["view", "--web", outputs, "--port", port]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`port ${port} of 127.0.0.1 is in use: pick another with --port`);
  });

  it("refuses --port without --web, and --web with --json (exit 2)", async () => {
    const port = await runVf(["view", outputs, "--port", "8123"]);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain("--port is the port of --web");
    const json = await runVf(["view", "--web", "--json", outputs]);
    expect(json.code).toBe(2);
    expect(json.stderr).toContain("--web and --json are two ways to show the runs");
  });

  it("stops on Ctrl-C", async () => {
    const { code, stderr } = await viewer.stop();
    expect(code).toBe(0);
    expect(stderr).toContain("stopped");
  });
});
