// vf view on real agent runs (test-support.ts): the coding taskset worked on by the bash harness in
// the subprocess runtime against a scripted model, saved as vf eval saves it. A rollout shows the
// agent's trace: how it ended, each model call with the tool calls it made and their results, and
// the branches of its message graph, which [ and ] move between.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listRuns } from "@vf-rl/core/results";
import { runVf } from "@vf-rl/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visibleWidth } from "../../terminal/text-width.ts";
import { conversationLines } from "./conversation-lines.ts";
import { renderViewer, rolloutLayout } from "./render-viewer.ts";
import {
  evalBashRun,
  evalOutlivingRun,
  evalRunawayRun,
  evaluateBranchingRun,
  manyConversationsRollout,
  PLAN,
  PLANNER_PROMPT,
  retriedCallRollout,
  startCodingModel,
  startRunawayModel,
  startShortContextModel,
  startSleepyModel,
  WITHHELD_REASON,
  withheldResultRollout,
} from "./test-support.ts";
import { initialState, type Key, press, type ViewerState } from "./viewer-model.ts";

const tall = { width: 120, height: 300, color: false };
let outputs: string;
const runs = { bash: "", runaway: "", outliving: "", branching: "", failed: "" };

beforeAll(async () => {
  outputs = await mkdtemp(join(tmpdir(), "vf-view-agents-"));
  const model = await startCodingModel();
  const runaway = await startRunawayModel();
  const short = await startShortContextModel();
  const sleepy = await startSleepyModel();
  try {
    runs.bash = await evalBashRun(outputs, model.url);
    runs.runaway = await evalRunawayRun(outputs, runaway.url);
    runs.outliving = await evalOutlivingRun(join(outputs, "outliving"), sleepy.url);
    runs.branching = await evaluateBranchingRun(outputs, model.url);
    runs.failed = await evalBashRun(join(outputs, "failed"), short.url);
  } finally {
    await Promise.all([model.close(), runaway.close(), short.close(), sleepy.close()]);
  }
}, 120_000);
afterAll(() => rm(outputs, { recursive: true, force: true }));

async function pressAll(state: ViewerState, keys: Key[]): Promise<ViewerState> {
  for (const key of keys) state = await press(state, key, 10);
  return state;
}

/** The viewer opened on run `dir`, with `keys` pressed. */
async function view(dir: string, keys: Key[]): Promise<ViewerState> {
  return pressAll(initialState(await listRuns(dir)), ["enter", ...keys]);
}

const lines = (state: ViewerState, size = tall) => renderViewer(state, size).map((line) => line.trimEnd());

describe("vf view on an agent's rollouts", () => {
  it("lists agent runs with their harness, found by it too", async () => {
    let state = initialState(await listRuns(outputs));
    const rows = lines(state).filter((line) => line.includes("coding-tasks"));
    expect(rows).toHaveLength(3);
    expect(rows.filter((line) => /coding-tasks · bash +scripted/.test(line))).toHaveLength(2);
    expect(rows.filter((line) => /coding-tasks · plan-then-bash +scripted/.test(line))).toHaveLength(1);
    state = await pressAll(state, ["search", ...[..."plan-then"].map((char) => ({ char })), "enter"]);
    expect(lines(state)[0]).toBe('vf view · 1 run matching "plan-then"');
  });

  it("names an agent run's harness in the plain list vf view prints without a terminal", async () => {
    const listed = await runVf(["view", runs.branching]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(
      /^\S+ {2}coding-tasks {2}scripted {2}plan-then-bash harness {2}\S+ {2}reward 1\.000 {2}1 rollouts {2}complete$/m,
    );
  });

  it("lists agent rollouts with their model calls, under a title naming the harness", async () => {
    const list = lines(await view(runs.bash, []));
    expect(list[0]).toBe("coding-tasks · scripted · bash harness · 2 rollouts · avg reward 0.500");
    expect(list).toContainEqual(
      expect.stringMatching(/^› #0\.0 {2}reward 1 +agent_completed +2 calls {2}checks/),
    );
    expect(list).toContainEqual(
      expect.stringMatching(/^ {2}#1\.0 {2}reward 0 +agent_completed +1 call {2}checks/),
    );
  });

  it("shows each model call in order with the tool call it made, its result, tokens and finish reason", async () => {
    const screen = lines(await view(runs.bash, ["enter"]));
    expect(screen[0]).toBe("coding-tasks · rollout 1 of 2");
    expect(screen).toContain("── agent: agent_completed · exit 0 · 2 model calls ──");
    // One branch: no list of branches, and nothing to switch.
    expect(screen.join("\n")).not.toMatch(/branches|\[ \] branch/);
    expect(screen).toContain("── conversation · calls 1–2 ──");
    const first = screen.findIndex((line) =>
      /^assistant · call 1 · \d+ → \d+ tokens · tool_calls · \d+ ms:$/.test(line),
    );
    expect(first).toBeGreaterThan(screen.indexOf("── conversation · calls 1–2 ──"));
    expect(screen[first + 1]).toBe("  The slug keeps dashes at its ends; I will fix the regex.");
    expect(screen[first + 2]).toMatch(/^ {2}→ bash \[call_\w+\]$/);
    expect(screen[first + 3]).toMatch(/^ {6}command: sed -i /);
    const result = screen.findIndex((line) => /^tool result \(call_\w+\):$/.test(line));
    expect(result).toBeGreaterThan(first);
    expect(screen[result + 1]).toBe("  [exit code 0]");
    expect(screen[result + 2]).toMatch(/^assistant · call 2 · \d+ → \d+ tokens · stop · \d+ ms:$/);
    expect(screen[result + 3]).toBe("  Done.");
    // The tools the agent offered, after its messages, each with the first line of its description.
    const tools = screen.indexOf("── tools offered (2) ──");
    expect(tools).toBeGreaterThan(result);
    expect(screen[tools + 1]).toBe("  bash(command: string)");
    expect(screen[tools + 2]).toMatch(/^ {6}Run a bash command in the working folder/);
    // The calls in order, with the API the agent spoke and the token ids the model returned.
    const calls = screen.indexOf("── model calls (2) ──");
    expect(calls).toBeGreaterThan(tools);
    expect(screen[calls + 1]).toMatch(
      /^1\. openai_chat_completions · scripted · \d+ → \d+ tokens · tool_calls/,
    );
    expect(screen[calls + 2]).toMatch(/^ {3}token ids: \d+ sampled$/);
    expect(screen[calls + 3]).toMatch(/^2\. openai_chat_completions · scripted · \d+ → \d+ tokens · stop/);
    // The program's last output ends the screen.
    const output = screen.indexOf("── program output (last lines) ──");
    expect(screen.slice(output + 1)).toContain("  Done.");
    expect(screen).toContainEqual(expect.stringMatching(/^tokens: \d+ in · \d+ out$/));
  });

  it("jumps from section to section and from call to call with tab and shift-tab", async () => {
    const small = { width: 120, height: 20, color: false };
    let state = await view(runs.bash, ["enter"]);
    const tab = async (key: Key) => {
      state = await press(state, key, 16, rolloutLayout(state, small));
      return renderViewer(state, small)[2]!;
    };
    // Each jump puts a section's first line, or a reply under its call, at the top of the screen.
    expect(await tab("next-section")).toBe("── agent: agent_completed · exit 0 · 2 model calls ──");
    expect(await tab("next-section")).toBe("── conversation · calls 1–2 ──");
    expect(await tab("next-section")).toMatch(/^assistant · call 1 · /);
    expect(await tab("next-section")).toMatch(/^assistant · call 2 · /);
    expect(await tab("previous-section")).toMatch(/^assistant · call 1 · /);
    // Past the last section that can reach the top, the end of the rollout.
    for (let i = 0; i < 6; i++) await tab("next-section");
    expect(renderViewer(state, small).at(-1)).toMatch(/· (\d+)\/\1$/);
    await tab("previous-section");
    expect(renderViewer(state, small).at(-1)).not.toMatch(/· (\d+)\/\1$/);
  });

  it("shows the limit that ended a runaway agent, in the list and on the rollout", async () => {
    const list = lines(await view(runs.runaway, []));
    expect(list).toContainEqual(
      expect.stringMatching(/^› #0\.0 {2}reward 0 +max_turns +✗ max_turns 3 calls/),
    );
    const screen = lines(await view(runs.runaway, ["enter"]));
    expect(screen).toContain("── agent: max_turns · exit 1 · 3 model calls ──");
    expect(screen).toContain("✗ max_turns: the task's limit of 3 model calls is reached");
    expect(screen).toContain("stop: max_turns · truncated");
    expect(screen).toContainEqual(
      expect.stringMatching(/vf-bash-agent: the model call failed \(400\): vf ended this run/),
    );
  });

  it("shows an agent killed at its time limit: no exit code, and the limit that ended it", async () => {
    const list = lines(await view(runs.outliving, []));
    expect(list).toContainEqual(expect.stringMatching(/^› #0\.0 {2}reward 0 +timeout +✗ timeout 1 call/));
    const screen = lines(await view(runs.outliving, ["enter"]));
    expect(screen).toContain("── agent: timeout · killed · 1 model call ──");
    expect(screen).toContain("✗ timeout: the run's time limit of 2 s is up");
    expect(screen).toContain("      command: sleep 30");
  });

  it("shows a failed call where the agent made it: what it sent past the last reply, and why it failed", async () => {
    const list = lines(await view(runs.failed, []));
    expect(list).toContainEqual(expect.stringMatching(/^› #0\.0 {2}reward 0 +error +✗ HarnessError 2 calls/));
    const screen = lines(await view(runs.failed, ["enter"]));
    expect(screen).toContain("── agent: error · exit 1 · 2 model calls (1 failed) ──");
    const sent = screen.findIndex((line) => /^tool result \(call_\w+\) · sent in call 2:$/.test(line));
    expect(sent).toBeGreaterThan(screen.findIndex((line) => line.startsWith("assistant · call 1 · ")));
    expect(screen.slice(sent + 1, sent + 3)).toEqual(["  README.md", "  package.json"]);
    const failed = screen.findIndex((line) => line.startsWith("call 2 · failed · "));
    expect(failed).toBeGreaterThan(sent);
    expect(screen.slice(failed, failed + 3).join(" ")).toMatch(/✗ prompt is too long: .*2048 tokens/);
    expect(screen).toContainEqual(
      expect.stringMatching(/^2\. openai_chat_completions · scripted · failed · \d+ ms$/),
    );
  });

  it("says which tool results the host withheld, and shows what the model was sent instead", async () => {
    const screen = conversationLines(await withheldResultRollout(), 120).map((line) => line.text);
    expect(screen).toContainEqual(
      expect.stringMatching(
        new RegExp(`^tool result call_\\w+ \\(bash\\) withheld from call 2: ${WITHHELD_REASON}$`),
      ),
    );
    const result = screen.findIndex((line) => /^tool result \(call_\w+\):$/.test(line));
    expect(screen[result + 1]).toBe(`  [vf] this tool result was withheld: ${WITHHELD_REASON}`);
    // What the agent read is kept for the audit, above the conversation, never as the result.
    const edit = screen.findIndex((line) => line.includes("withheld from call 2"));
    expect(screen[edit + 1]).toBe("  the agent sent: assert(answer === 42);");
    expect(screen.filter((line) => line.includes("answer === 42"))).toHaveLength(1);
  });

  it("shows a trace's branches, the main one first, and moves between them with [ and ]", async () => {
    let state = await view(runs.branching, ["enter"]);
    let screen = lines(state);
    // The planner's call, then two attempts of the bash agent, two calls each: it finished on the second.
    expect(screen[0]).toBe("coding-tasks · rollout 1 of 1 · branch 3 of 3 (main)");
    expect(screen.at(-1)).toMatch(
      /^↑↓ scroll · space page · tab section · n\/p rollout · \[ \] branch · b back · q quit · \d+\/\d+$/,
    );
    const list = screen.indexOf("3 branches ([ and ] switch):");
    expect(screen.slice(list + 1, list + 4)).toEqual([
      `    1  calls 1 · 3 messages · system: ${PLANNER_PROMPT}`,
      "    2  calls 2–3 · 5 messages · assistant: The slug keeps dashes at its ends; I will fix the regex.",
      expect.stringMatching(
        /^ {2}› 3 {2}main · calls 4–5 · 5 messages · system: You are a coding agent .*…$/,
      ),
    ]);
    expect(screen).toContain("── branch 3 of 3 · main · calls 4–5 ──");
    expect(screen).toContain("the branch the agent finished on: the row's prompt and completion");
    expect(screen).toContainEqual(expect.stringMatching(/^assistant · call 4 · .* tool_calls/));
    expect(screen).toContainEqual(expect.stringMatching(/^ {2}→ bash \[call_\w+\]$/));
    expect(screen).toContain("── tools offered on this branch (2) ──");
    expect(screen).toContainEqual(expect.stringMatching(/^1\. openai_chat_completions .* · branch 1$/));
    expect(screen).toContainEqual(expect.stringMatching(/^3\. openai_chat_completions .* · branch 2$/));
    expect(screen).toContainEqual(expect.stringMatching(/^5\. openai_chat_completions .* · branch 3$/));

    // The first attempt: it shares the system prompt and the task with the main branch.
    state = await pressAll(state, ["down", { char: "[" }]);
    screen = lines(state);
    expect(screen[0]).toBe("coding-tasks · rollout 1 of 1 · branch 2 of 3");
    // A new branch is shown from the top.
    expect(screen[2]).toMatch(/^example 0 · rollout 0 · reward 1/);
    expect(screen).toContainEqual(expect.stringMatching(/^ {2}› 2 {2}calls 2–3 · 5 messages/));
    expect(screen).toContain("── branch 2 of 3 · calls 2–3 ──");
    expect(screen).toContain("leaves the main branch after its first 2 messages");
    expect(screen).toContainEqual(expect.stringMatching(/^assistant · call 2 · .* tool_calls/));
    expect(screen).toContainEqual(expect.stringMatching(/^assistant · call 3 · .* stop/));

    // The planner: a conversation of its own, offered no tools.
    state = await pressAll(state, [{ char: "[" }]);
    screen = lines(state);
    expect(screen[0]).toBe("coding-tasks · rollout 1 of 1 · branch 1 of 3");
    expect(screen).toContain("── branch 1 of 3 · calls 1 ──");
    expect(screen).toContain("a conversation of its own: no message in common with the main branch");
    const branch = screen.indexOf("── branch 1 of 3 · calls 1 ──");
    expect(screen.slice(branch + 2, branch + 4)).toEqual(["system:", `  ${PLANNER_PROMPT}`]);
    const reply = screen.findIndex((line) => line.startsWith("assistant · call 1 · "));
    expect(screen[reply + 1]).toBe(`  ${PLAN}`);
    expect(screen.join("\n")).not.toMatch(/→ bash|tools offered/);

    // At either end the keys stay where they are.
    state = await pressAll(state, [{ char: "[" }]);
    expect(lines(state)[0]).toBe("coding-tasks · rollout 1 of 1 · branch 1 of 3");
    state = await pressAll(state, [{ char: "]" }, { char: "]" }, { char: "]" }]);
    expect(lines(state)[0]).toBe("coding-tasks · rollout 1 of 1 · branch 3 of 3 (main)");
  });

  it("shows a retried call as a branch leaving the main one after the reply both carry on from", async () => {
    const record = await retriedCallRollout();
    const main = conversationLines(record, 120).map((line) => line.text);
    expect(main).toContain("── branch 2 of 2 · main · calls 1, 3 ──");
    expect(main).toContainEqual(expect.stringMatching(/^1\. openai_chat_completions .* · branches 1, 2$/));
    expect(main).toContainEqual(expect.stringMatching(/^3\. openai_chat_completions .* · branch 2$/));
    const retried = conversationLines(record, 120, 0).map((line) => line.text);
    expect(retried).toContain("── branch 1 of 2 · calls 1–2 ──");
    expect(retried).toContain("leaves the main branch after its first 3 messages");
    expect(retried).toContain("  › 1  calls 1–2 · 4 messages · assistant: answer 2");
  });

  it("lists a dozen branches as a window of nine around the one shown", async () => {
    const record = await manyConversationsRollout(12);
    const rows = (branch?: number) =>
      conversationLines(record, 120, branch)
        .map((line) => line.text)
        .filter((line) => /^ {2}(›| ) \d+ {2}|^ {4}… /.test(line));
    // The main branch is the last conversation.
    expect(rows()).toEqual([
      "    … 3 more",
      ...[4, 5, 6, 7, 8, 9, 10, 11].map((i) => `    ${i}  calls ${i} · 2 messages · user: question ${i}`),
      "  › 12  main · calls 12 · 2 messages · user: question 12",
    ]);
    expect(rows(0)[0]).toBe("  › 1  calls 1 · 2 messages · user: question 1");
    expect(rows(0).at(-1)).toBe("    … 3 more");
    expect(rows(6)).toHaveLength(11);
  });

  it("finds agents' rollouts by the commands they ran, the limits that ended them and any branch", async () => {
    const search = async (dir: string, text: string) =>
      lines(await view(dir, ["search", ...[...text].map((char) => ({ char })), "enter"]));
    expect((await search(runs.bash, "sed -i")).filter((line) => /#\d\.\d/.test(line))).toEqual([
      expect.stringMatching(/^› #0\.0 /),
    ]);
    expect(await search(runs.runaway, "limit of 3 model calls")).toContainEqual(
      expect.stringMatching(/^› #0\.0 /),
    );
    // The plan is on the planner's branch only, not in the row's prompt and completion.
    expect(await search(runs.branching, "trim the dashes")).toContainEqual(
      expect.stringMatching(/^› #0\.0 /),
    );
    expect(await search(runs.bash, "trim the dashes")).toContain("nothing matches");
    // n and p move among the rollouts the search found: here, one.
    let state = await view(runs.bash, [
      "search",
      ...[..."sed -i"].map((char) => ({ char })),
      "enter",
      "enter",
    ]);
    state = await pressAll(state, [{ char: "n" }]);
    expect(lines(state)[0]).toBe("coding-tasks · rollout 1 of 2");
    state = await pressAll(state, ["back", "search", "enter", "enter", { char: "n" }]);
    expect(lines(state)[0]).toBe("coding-tasks · rollout 2 of 2");
  });

  it("fits every line of an agent's rollout in 80 columns with colour on", async () => {
    const narrow = { width: 80, height: 24, color: true };
    let state = await view(runs.branching, ["enter"]);
    for (let page = 0; page < 6; page++) {
      expect(renderViewer(state, narrow).filter((line) => visibleWidth(line) > 80)).toEqual([]);
      // The keys that fit, then where the screen stands, which always shows.
      expect(renderViewer(state, { ...narrow, color: false }).at(-1)).toMatch(/ · \d+\/\d+$/);
      state = await pressAll(state, ["pagedown"]);
    }
  });
});
