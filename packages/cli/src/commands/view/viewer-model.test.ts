import { join } from "node:path";
import { listRuns } from "@vf-rl/core/results";
import { describe, expect, it } from "vitest";
import { visibleWidth } from "../../terminal/text-width.ts";
import { renderViewer } from "./render-viewer.ts";
import { initialState, type Key, press, type ViewerState } from "./viewer-model.ts";

// Python verifiers' outputs (../shared/fixtures), as copied into the core package for a fresh clone.
const fixtures = join(import.meta.dirname, "../../../../core/src/results/fixtures/verifiers-outputs");
// A run in the shape verifiers 0.1.6 saved: its avg_reward is a 0.0 placeholder, its rows average 0.75.
const placeholderRun = join(import.meta.dirname, "../../../../core/src/results/fixtures/verifiers-0.1.6");
const size = { width: 120, height: 40, color: false };

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
