import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listRuns } from "@vf-rl/core/results";
import { afterAll, describe, expect, it } from "vitest";
import { visibleWidth } from "../../terminal/text-width.ts";
import { renderViewer } from "./render-viewer.ts";
import { initialState, type Key, press, type ViewerState } from "./viewer-model.ts";

// Python verifiers' outputs (../shared/fixtures), as copied into the core package for a fresh clone.
const fixtures = join(import.meta.dirname, "../../../../core/src/results/fixtures/verifiers-outputs");
// A run in the shape verifiers 0.1.6 saved: its avg_reward is a 0.0 placeholder, its rows average 0.75.
const placeholderRun = join(import.meta.dirname, "../../../../core/src/results/fixtures/verifiers-0.1.6");
const size = { width: 120, height: 40, color: false };

const temps: string[] = [];
afterAll(() => Promise.all(temps.map((dir) => rm(dir, { recursive: true, force: true }))));

/**
 * verifiers' math-python run (5 examples × 3 rollouts, one python tool) with its rows saved as a run
 * saves them, in the order the rollouts finished: each row numbered, then written out of order.
 */
async function runSavedAsFinished(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "vf-view-order-"));
  temps.push(dir);
  await cp(join(fixtures, "evals", "math-python--gpt-4.1-mini"), dir, { recursive: true });
  const file = join(dir, "578769a7", "results.jsonl");
  const counts = new Map<number, number>();
  const rows = (await readFile(file, "utf8"))
    .trim()
    .split("\n")
    .map((line) => {
      const row = JSON.parse(line);
      row.rollout_index = counts.get(row.id) ?? 0;
      counts.set(row.id, row.rollout_index + 1);
      return JSON.stringify(row);
    });
  const finished = [0, 1, 2, 7, 9, 3, 14, 4, 12, 5, 6, 8, 10, 13, 11];
  await writeFile(file, `${finished.map((i) => rows[i]).join("\n")}\n`);
  return dir;
}

async function pressAll(state: ViewerState, keys: Key[]): Promise<ViewerState> {
  for (const key of keys) state = await press(state, key, 10);
  return state;
}

const screenText = (state: ViewerState) => renderViewer(state, size).join("\n");

describe("vf view", () => {
  it("lists the Python-written runs, opens one, and shows a conversation with its tool calls and results", async () => {
    let state = initialState(await listRuns(fixtures));
    expect(screenText(state)).toMatch(/vf view · 4 runs/);
    expect(screenText(state)).toContain("math-python");

    state = await pressAll(state, [
      { char: "/" },
      { char: "m" },
      { char: "a" },
      { char: "t" },
      { char: "h" },
      "enter",
    ]);
    expect(screenText(state)).toMatch(/1 run matching "math"/);

    state = await pressAll(state, ["enter"]);
    expect(screenText(state)).toMatch(/math-python · gpt-4.1-mini · 15 rollouts/);
    expect(screenText(state)).toMatch(/› #0\.0 {2}reward 1/);

    state = await pressAll(state, ["down", "down", "down", "down", "down", "enter"]);
    const conversation = renderViewer(state, { ...size, height: 200 }).join("\n");
    expect(conversation).toMatch(/example 1 · rollout 2 · reward 0/);
    expect(conversation).toContain("→ python [call_");
    expect(conversation).toContain("tool result (call_");

    state = await pressAll(state, ["back", "back"]);
    expect(screenText(state)).toMatch(/vf view · 1 run matching/);
    state = await pressAll(state, [{ char: "q" }]);
    expect(state.quit).toBe(true);
  });

  it("lists rollouts by example and rollout, though the run saved them in the order they finished", async () => {
    let state = initialState(await listRuns(await runSavedAsFinished()));
    state = await pressAll(state, ["enter"]);
    const list = renderViewer(state, { ...size, height: 30 }).join("\n");
    expect(list.match(/#\d+\.\d+/g)).toEqual(
      [0, 1, 2, 3, 4].flatMap((example) => [0, 1, 2].map((rollout) => `#${example}.${rollout}`)),
    );
    state = await pressAll(state, ["down", "down", "down", "enter"]);
    const conversation = renderViewer(state, { ...size, height: 200 });
    expect(conversation[0]).toBe("math-python · rollout 4 of 15");
    expect(conversation.join("\n")).toMatch(/example 1 · rollout 0 · reward 1/);
  });

  it("shows the tools the model was offered, with their arguments and descriptions, above the prompt", async () => {
    let state = initialState(await listRuns(join(fixtures, "evals", "math-python--gpt-4.1-mini")));
    state = await pressAll(state, ["enter", "enter"]);
    const conversation = renderViewer(state, { ...size, height: 200 }).map((line) => line.trimEnd());
    const tools = conversation.indexOf("── tools offered (1) ──");
    expect(tools).toBeGreaterThan(0);
    expect(conversation.slice(tools + 1, tools + 3)).toEqual([
      "  python(code: string)",
      "      Execute `code` inside persistent Python REPL.",
    ]);
    expect(conversation.indexOf("── prompt ──")).toBe(tools + 3);

    // verifiers saved wiki-search's tools with a null schema for the arguments a tool does not take
    let wiki = initialState(await listRuns(join(fixtures, "evals", "wiki-search--gpt-5")));
    wiki = await pressAll(wiki, ["enter", "enter"]);
    expect(renderViewer(wiki, { ...size, height: 200 }).join("\n")).toContain(
      "  search_pages(page_id?: any, query: string, section_id?: any)",
    );
  });

  it("moves to the next and previous rollout from a rollout with n and p", async () => {
    let state = initialState(await listRuns(await runSavedAsFinished()));
    state = await pressAll(state, ["enter", "enter", { char: "n" }]);
    expect(renderViewer(state, size)[0]).toBe("math-python · rollout 2 of 15");
    expect(screenText(state)).toMatch(/example 0 · rollout 1 · /);
    state = await pressAll(state, [{ char: "p" }, { char: "p" }]);
    expect(renderViewer(state, size)[0]).toBe("math-python · rollout 1 of 15");
    // Back in the list, the cursor is on the rollout last shown.
    state = await pressAll(state, [{ char: "n" }, { char: "n" }, { char: "n" }, "back"]);
    expect(screenText(state)).toMatch(/› #1\.0 /);
    // At the last rollout, n stays.
    state = await pressAll(state, ["end", "enter", { char: "n" }]);
    expect(renderViewer(state, size)[0]).toBe("math-python · rollout 15 of 15");
  });

  it("scrolls a long conversation and pages through it", async () => {
    let state = initialState(await listRuns(join(fixtures, "evals", "wordle--gpt-4.1-mini")));
    state = await pressAll(state, ["enter", "enter"]);
    const first = screenText(state);
    state = await pressAll(state, [{ char: " " }]);
    expect(screenText(state)).not.toBe(first);
    state = await pressAll(state, ["home"]);
    expect(screenText(state)).toBe(first);
  });

  it("filters rollouts by text in their conversation", async () => {
    let state = initialState(await listRuns(join(fixtures, "evals", "wordle--gpt-4.1-mini")));
    state = await pressAll(state, [
      "enter",
      "search",
      ...[..."zzzz-not-there"].map((char) => ({ char })),
      "enter",
    ]);
    expect(screenText(state)).toContain("nothing matches");
    state = await pressAll(state, ["search", "enter"]);
    expect(screenText(state)).toMatch(/› #0\.0/);
  });

  it("heads the rollout list with the average of the rows, not a saved 0.0 placeholder", async () => {
    let state = initialState(await listRuns(placeholderRun));
    expect(screenText(state)).toMatch(/arith .* reward 0\.750/);
    state = await pressAll(state, ["enter"]);
    expect(renderViewer(state, size)[0]).toBe("arith · gpt-4.1-mini · 4 rollouts · avg reward 0.750");
  });

  it("fits every line in 80 columns with colour on: rows share the width, text wraps, the rest is cut", async () => {
    const narrow = { width: 80, height: 24, color: true };
    let state = initialState(await listRuns(fixtures));
    const list = renderViewer(state, narrow);
    expect(list).toHaveLength(24);
    expect(list.filter((line) => visibleWidth(line) > 80)).toEqual([]);
    state = await pressAll(state, ["enter", "enter"]);
    const conversation = renderViewer(state, narrow);
    expect(conversation.filter((line) => visibleWidth(line) > 80)).toEqual([]);
    const notice = renderViewer({ ...state, notice: `cannot open ${"x".repeat(200)}` }, narrow);
    const cut = notice.find((line) => line.includes("cannot open"))!;
    expect(visibleWidth(cut)).toBe(80);
    expect(cut).toMatch(/x…\x1b\[/);
  });
});
