// Every task as shipped, scored as an agent's run would be: the repository left as given scores 0,
// the reference fix written over it scores 1, and the repository's own tests pass either way (only
// the hidden tests catch the bug). The runtime is a temporary folder (test-support.ts).
import { readFileSync } from "node:fs";
import type { AgentTask, Runtime } from "@vf-rl/core/agents";
import { afterEach, describe, expect, it } from "vitest";
import { loadTaskset, referenceFix } from "./index.ts";
import { tempFolderRuntimes, unreadTrace } from "./test-support.ts";

const taskset = await loadTaskset();
const tasks = [...(await taskset.tasks({ split: "train" })), ...(await taskset.tasks({ split: "eval" }))];

let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
});

/** A runtime holding the task's files with `edits` (the agent's work) written over them. */
async function afterAgent(task: AgentTask, edits: Record<string, string> = {}): Promise<Runtime> {
  runtime = await tempFolderRuntimes.create(task, { interceptionUrl: "http://127.0.0.1:9" });
  for (const [path, content] of Object.entries(edits)) await runtime.writeFile(path, content);
  return runtime;
}

const OWN_TESTS: Record<string, string[]> = {
  javascript: ["node", "--test"],
  python: ["python3", "-m", "unittest"],
};

/** The README's "unfixed" column: what each repository as given passes, e.g. `2/6`. */
const unfixed = new Map(
  [
    ...readFileSync(new URL("../README.md", import.meta.url), "utf8").matchAll(
      /^\| `([\w-]+)` .*\| (\d+)\/(\d+) +\|$/gm,
    ),
  ].map((m) => [m[1]!, Number(m[2]) / Number(m[3])]),
);

it("covers 13 tasks, both languages, both splits, each in the README", () => {
  expect([...unfixed.keys()].sort()).toEqual(tasks.map((t) => t.id).sort());
  expect(tasks).toHaveLength(13);
  expect(new Set(tasks.map((t) => t.info.language))).toEqual(new Set(["javascript", "python"]));
});

describe.each(tasks.map((task) => [task.id, task] as const))("%s", (_id, task) => {
  it("scores 0 as given, passing what the README says", async () => {
    const score = await taskset.score({ task, trace: unreadTrace, runtime: await afterAgent(task) });
    expect(score).toEqual({
      reward: 0,
      metrics: { checks_passed: unfixed.get(task.id), checks_timed_out: 0, checks_crashed: 0 },
    });
  });

  it("scores 1 with its reference fix", async () => {
    const score = await taskset.score({
      task,
      trace: unreadTrace,
      runtime: await afterAgent(task, await referenceFix(task.id)),
    });
    expect(score).toEqual({
      reward: 1,
      metrics: { checks_passed: 1, checks_timed_out: 0, checks_crashed: 0 },
    });
  });
});

// Answer-file tasks have no tests of their own.
const fixTasks = tasks.filter((task) => task.info.check === "hidden-tests");

describe.each(fixTasks.map((task) => [task.id, task] as const))("%s", (_id, task) => {
  it("passes its own tests as given and fixed", async () => {
    const argv = OWN_TESTS[task.info.language as string]!;
    const given = await (await afterAgent(task)).exec(argv, { timeoutMs: 60_000 });
    expect(given.exitCode, given.stdout + given.stderr).toBe(0);
    await runtime?.close();
    const fixed = await (await afterAgent(task, await referenceFix(task.id))).exec(argv, {
      timeoutMs: 60_000,
    });
    expect(fixed.exitCode, fixed.stdout + fixed.stderr).toBe(0);
  });
});
