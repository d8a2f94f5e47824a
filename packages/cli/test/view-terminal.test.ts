// `vf view` in a real terminal: tmux runs the real binary in a pane of a given size, keys go in
// with send-keys and the screen comes back with capture-pane. At 80×24 and up, with colour on,
// every line fits the width (wrapped lines are joined back by -J, so one that wrapped shows as
// too wide), the title stays on the first line and the selected row stays on screen as the cursor
// moves past the bottom. The runs are verifiers' outputs, one of them given a model name as long as
// real ones (meta-llama/...) and an answer in Chinese, whose characters take two columns each.
// An agent's run is real: the coding taskset worked on by the bash harness against a scripted
// model, one run through vf eval and one whose harness asks a planning subagent first (branches).
import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { VF_BIN } from "@vf-rl/test-support";
import stringWidth from "string-width";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  evalBashRun,
  evaluateBranchingRun,
  PLAN,
  PLANNER_PROMPT,
  startCodingModel,
} from "../src/commands/view/test-support.ts";

const run = promisify(execFile);
const fixtures = fileURLToPath(new URL("../../core/src/results/fixtures/verifiers-outputs", import.meta.url));
const LONG_MODEL = "meta-llama/Llama-3.3-70B-Instruct-Turbo";
const WIDE_ANSWER = "乌苏罗船的意思是空心的船。".repeat(12);

let outputs: string;
beforeAll(async () => {
  outputs = await mkdtemp(join(tmpdir(), "vf-view-tmux-"));
  await cp(fixtures, outputs, { recursive: true });
  const wiki = join(outputs, "evals", "wiki-search--gpt-5", "73850758");
  const metadata = JSON.parse(await readFile(join(wiki, "metadata.json"), "utf8"));
  await writeFile(join(wiki, "metadata.json"), JSON.stringify({ ...metadata, model: LONG_MODEL }));
  const rows = (await readFile(join(wiki, "results.jsonl"), "utf8")).trim().split("\n");
  const first = JSON.parse(rows[0]!);
  first.completion = [{ role: "assistant", content: WIDE_ANSWER }];
  rows[0] = JSON.stringify(first);
  await writeFile(join(wiki, "results.jsonl"), `${rows.join("\n")}\n`);
});
afterAll(async () => {
  await rm(outputs, { recursive: true, force: true });
});

/**
 * A tmux server of each test's own (its socket name), so no user session is touched, and a server
 * still shutting down after one test is never the one the next test starts its session on.
 */
let servers = 0;
let socket = "";
const tmux = (...args: string[]) => run("tmux", ["-L", socket, ...args]);
afterEach(async () => {
  await tmux("kill-server").catch(() => {});
});

/** The pane's lines as shown, wrapped lines joined back; with `escapes`, colour codes kept. */
async function screen(escapes = false): Promise<string[]> {
  const { stdout } = await tmux("capture-pane", "-p", "-J", ...(escapes ? ["-e"] : []), "-t", "view");
  return stdout
    .replace(/\n$/, "")
    .split("\n")
    .map((line) => line.trimEnd());
}

/** Polls the pane (at most ~60 s) until `check` holds for its lines. */
async function until(check: (lines: string[]) => boolean): Promise<string[]> {
  let lines: string[] = [];
  for (let i = 0; i < 600; i++) {
    lines = await screen();
    if (check(lines)) return lines;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the screen never showed what was expected:\n${lines.join("\n")}`);
}

async function startView(width: number, height: number, dir = outputs): Promise<void> {
  socket = `vf-view-test-${process.pid}-${++servers}`;
  // NO_COLOR unset and a colour terminal: the viewer draws in colour, as users see it.
  const env: NodeJS.ProcessEnv = { ...process.env, TERM: "xterm-256color" };
  delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  await run(
    "tmux",
    [
      "-L",
      socket,
      "-f",
      "/dev/null",
      "new-session",
      "-d",
      "-s",
      "view",
      "-x",
      String(width),
      "-y",
      String(height),
      `${process.execPath} ${VF_BIN} view ${dir}`,
    ],
    { env },
  );
}

function expectFits(lines: string[], width: number): void {
  const tooWide = lines.filter((line) => stringWidth(line) > width);
  expect(tooWide).toEqual([]);
}

describe("vf view in a terminal", { timeout: 120_000 }, () => {
  it.each([
    [80, 24],
    [100, 30],
  ])(
    "fits every line in %i columns, keeps the title on top and the selected row on screen",
    async (width, height) => {
      await startView(width, height);
      const runs = await until((lines) => lines[0]!.startsWith("vf view · 4 runs"));
      expectFits(runs, width);
      expect(runs.filter((line) => line.startsWith("› "))).toHaveLength(1);
      // The model's name is cut to its column; the numbers after it all show.
      expect(runs.find((line) => line.includes("wiki-search"))).toMatch(
        / meta-llama\/.* 0\.900 +50 rollouts$/,
      );
      // Colour is on: the selected row is drawn in reverse video.
      expect((await screen(true)).some((line) => /\x1b\[(?:\d+;)*7m/.test(line))).toBe(true);

      // Open the run of 50 rollouts, and its first rollout: the wide answer wraps within the width.
      await tmux("send-keys", "-t", "view", "/", "wiki", "Enter", "Enter");
      await until((lines) => lines[0]!.startsWith(`wiki-search · ${LONG_MODEL}`));
      await tmux("send-keys", "-t", "view", "Enter");
      expectFits(await until((lines) => lines[0]!.startsWith("wiki-search · rollout 1 of 50")), width);
      // The answer ends the conversation (below the tools offered and the prompt): its last page.
      await tmux("send-keys", "-t", "view", "G");
      const conversation = await until((lines) => /· (\d+)\/\1$/.test(lines.at(-1)!));
      expectFits(conversation, width);
      const answer = conversation
        .filter((line) => /^ +[\u4e00-\u9fff。]+$/.test(line))
        .map((line) => line.trim());
      expect(answer.length).toBeGreaterThan(1);
      expect(answer.join("")).toBe(WIDE_ANSWER);

      // Back to the list, and the cursor well past the bottom of the screen.
      await tmux("send-keys", "-t", "view", "b");
      await until((lines) => lines.some((line) => line.startsWith("› #0.0 ")));
      for (let i = 0; i < 35; i++) await tmux("send-keys", "-t", "view", "Down");
      const moved = await until((lines) => lines.some((line) => line.startsWith("› #35.0 ")));
      expect(moved[0]).toMatch(new RegExp(`^wiki-search · ${LONG_MODEL} · 50 rollouts · avg`));
      expect(moved.filter((line) => line.startsWith("› "))).toHaveLength(1);
      expectFits(moved, width);
      expect(moved).toHaveLength(height);

      await tmux("send-keys", "-t", "view", "q");
    },
  );

  it("lists a run's rollouts by example and rollout, not as they finished, and shows the tools offered", async () => {
    // math-python's 15 rollouts (5 examples × 3, one python tool), saved in the order they finished.
    const run = join(outputs, "evals", "math-python--gpt-4.1-mini", "578769a7");
    const counts = new Map<number, number>();
    const rows = (await readFile(join(run, "results.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => {
        const row = JSON.parse(line);
        row.rollout_index = counts.get(row.id) ?? 0;
        counts.set(row.id, row.rollout_index + 1);
        return JSON.stringify(row);
      });
    const finished = [0, 1, 2, 7, 9, 3, 14, 4, 12, 5, 6, 8, 10, 13, 11];
    const scrambled = await mkdtemp(join(tmpdir(), "vf-view-order-"));
    try {
      await cp(run, join(scrambled, "578769a7"), { recursive: true });
      await writeFile(
        join(scrambled, "578769a7", "results.jsonl"),
        `${finished.map((i) => rows[i]).join("\n")}\n`,
      );
      await startView(100, 30, scrambled);
      await until((lines) => lines[0]!.startsWith("vf view · 1 run"));
      await tmux("send-keys", "-t", "view", "Enter");
      const list = await until((lines) => lines[0]!.startsWith("math-python · gpt-4.1-mini · 15 rollouts"));
      expect(list.join("\n").match(/#\d+\.\d+/g)).toEqual(
        [0, 1, 2, 3, 4].flatMap((example) => [0, 1, 2].map((rollout) => `#${example}.${rollout}`)),
      );
      await tmux("send-keys", "-t", "view", "Enter");
      const conversation = await until((lines) => lines[0]!.startsWith("math-python · rollout 1 of 15"));
      const tools = conversation.indexOf("── tools offered (1) ──");
      expect(tools).toBeGreaterThan(0);
      expect(conversation.slice(tools + 1, tools + 3)).toEqual([
        "  python(code: string)",
        "      Execute `code` inside persistent Python REPL.",
      ]);
      await tmux("send-keys", "-t", "view", "q");
    } finally {
      await rm(scrambled, { recursive: true, force: true });
    }
  });

  it("shows an agent's run: its calls with their tool calls and results, and its branches, [ and ] between them", async () => {
    const agents = await mkdtemp(join(tmpdir(), "vf-view-agents-"));
    const model = await startCodingModel();
    try {
      const bash = await evalBashRun(agents, model.url);
      const branching = await evaluateBranchingRun(agents, model.url);
      const width = 100;
      await startView(width, 30, bash);
      await until((lines) => lines[0]!.startsWith("vf view · 1 run"));
      await tmux("send-keys", "-t", "view", "Enter");
      const list = await until((lines) => lines[0]!.startsWith("coding-tasks · scripted · bash harness"));
      expect(list).toContainEqual(expect.stringMatching(/^› #0\.0 {2}reward 1 +agent_completed +2 calls /));
      await tmux("send-keys", "-t", "view", "Enter");
      const rollout = await until((lines) => lines[0]!.startsWith("coding-tasks · rollout 1 of 2"));
      expectFits(rollout, width);
      expect(rollout).toContain("── agent: agent_completed · exit 0 · 2 model calls ──");
      // Tab jumps section by section: the conversation, then the first call's reply, which shows
      // with its tool call and the result under it (on the last page: the rollout ends on it).
      await tmux("send-keys", "-t", "view", "Tab", "Tab");
      await until((lines) => lines[2] === "── conversation · calls 1–2 ──");
      await tmux("send-keys", "-t", "view", "Tab");
      const calls = await until((lines) => /· (\d+)\/\1$/.test(lines.at(-1)!));
      expectFits(calls, width);
      expect(calls).toContainEqual(
        expect.stringMatching(/^assistant · call 1 · \d+ → \d+ tokens · tool_calls/),
      );
      expect(calls).toContainEqual(expect.stringMatching(/^ {2}→ bash \[call_\w+\]$/));
      expect(calls).toContainEqual(expect.stringMatching(/^tool result \(call_\w+\):$/));
      // Shift-tab goes back a section.
      await tmux("send-keys", "-t", "view", "BTab");
      await until((lines) => lines[2] === "── conversation · calls 1–2 ──");
      await tmux("send-keys", "-t", "view", "q");
      await tmux("kill-server").catch(() => {});

      await startView(width, 30, branching);
      await until((lines) => lines[0]!.startsWith("vf view · 1 run"));
      await tmux("send-keys", "-t", "view", "Enter");
      const row = await until((lines) =>
        lines[0]!.startsWith("coding-tasks · scripted · plan-then-bash harness"),
      );
      expect(row).toContainEqual(expect.stringMatching(/^› #0\.0 .* 5 calls · 3 branches /));
      await tmux("send-keys", "-t", "view", "Enter");
      const main = await until(
        (lines) => lines[0] === "coding-tasks · rollout 1 of 1 · branch 3 of 3 (main)",
      );
      expectFits(main, width);
      expect(main).toContainEqual(
        expect.stringMatching(/^ {2}› 3 {2}main · calls 4–5 · 5 messages · system: /),
      );
      expect(main.at(-1)).toContain("[ ] branch");
      // The first attempt, then the planner's conversation.
      await tmux("send-keys", "-t", "view", "-l", "[");
      const attempt = await until((lines) => lines[0] === "coding-tasks · rollout 1 of 1 · branch 2 of 3");
      expect(attempt).toContain("leaves the main branch after its first 2 messages");
      await tmux("send-keys", "-t", "view", "-l", "[");
      const planner = await until((lines) => lines[0] === "coding-tasks · rollout 1 of 1 · branch 1 of 3");
      expect(planner).toContainEqual(
        expect.stringMatching(/^ {2}› 1 {2}calls 1 · 3 messages · system: You are a planner/),
      );
      expect(planner).toContain("a conversation of its own: no message in common with the main branch");
      expect(planner).toContain(`  ${PLANNER_PROMPT}`);
      expect(planner).toContain(`  ${PLAN}`);
      expect(planner).toContainEqual(expect.stringMatching(/^assistant · call 1 · \d+ → \d+ tokens · stop/));
      expectFits(planner, width);
      await tmux("send-keys", "-t", "view", "q");
    } finally {
      await model.close();
      await rm(agents, { recursive: true, force: true });
    }
  });
});
