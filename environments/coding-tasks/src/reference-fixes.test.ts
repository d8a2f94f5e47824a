// Every task as shipped, scored as an agent's run would be, in @vf-rl/agents's runtimes: the
// repository left as given scores 0 (passing the share of hidden tests the README's table says),
// the reference fix written over it scores 1, and the repository's own tests pass either way (only
// the hidden tests catch the bug).
import { readFileSync } from "node:fs";
import { localRuntime, subprocessRuntime } from "@vf-rl/agents";
import type { AgentTask, Runtime, RuntimeFactory } from "@vf-rl/core/agents";
import { afterEach, describe, expect, it } from "vitest";
import { loadTaskset, referenceFix } from "./index.ts";
import { unreadTrace } from "./test-support.ts";

const taskset = await loadTaskset();
const tasks = [...(await taskset.tasks({ split: "train" })), ...(await taskset.tasks({ split: "eval" }))];

/** The README's "unfixed" column: what each repository as given passes, e.g. `2/6`. */
const unfixed = new Map(
  [
    ...readFileSync(new URL("../README.md", import.meta.url), "utf8").matchAll(
      /^\| `([\w-]+)` .*\| (\d+)\/(\d+) +\|$/gm,
    ),
  ].map((m) => [m[1]!, Number(m[2]) / Number(m[3])]),
);

const local = localRuntime();
const RUNTIMES: [string, RuntimeFactory][] = [
  ["the local sandbox", local],
  ["the subprocess runtime", subprocessRuntime({ quiet: true })],
];

/** The runtimes a test made, closed after it. */
const opened: Runtime[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((runtime) => runtime.close()));
});

/** A runtime of `factory` holding the task's files with `edits` (the agent's work) written over them. */
async function afterAgent(factory: RuntimeFactory, task: AgentTask, edits: Record<string, string> = {}) {
  const runtime = await factory.create(task, { interceptionUrl: "http://127.0.0.1:9/v1" });
  opened.push(runtime);
  for (const [path, content] of Object.entries(edits)) await runtime.writeFile(path, content);
  return runtime;
}

it("covers 13 tasks, both languages, both splits, each in the README", () => {
  expect([...unfixed.keys()].sort()).toEqual(tasks.map((t) => t.id).sort());
  expect(tasks).toHaveLength(13);
  expect(new Set(tasks.map((t) => t.info.language))).toEqual(new Set(["javascript", "python"]));
});

describe.each(RUNTIMES)("in %s", (_name, factory) => {
  describe.each(tasks.map((task) => [task.id, task] as const))("%s", (_id, task) => {
    it("scores 0 as given, passing what the README says", async () => {
      const score = await taskset.score({
        task,
        trace: unreadTrace,
        runtime: await afterAgent(factory, task),
      });
      expect(score).toEqual({
        reward: 0,
        metrics: { checks_passed: unfixed.get(task.id), checks_timed_out: 0, checks_crashed: 0 },
      });
    });

    it("scores 1 with its reference fix", async () => {
      const fixed = await afterAgent(factory, task, await referenceFix(task.id));
      const score = await taskset.score({ task, trace: unreadTrace, runtime: fixed });
      expect(score).toEqual({
        reward: 1,
        metrics: { checks_passed: 1, checks_timed_out: 0, checks_crashed: 0 },
      });
    });
  });
});

const OWN_TESTS: Record<string, string[]> = {
  javascript: ["node", "--test"],
  python: ["python3", "-m", "unittest"],
};

// Answer-file tasks have no tests of their own.
const fixTasks = tasks.filter((task) => task.info.check === "hidden-tests");

describe.each(fixTasks.map((task) => [task.id, task] as const))("%s in the local sandbox", (_id, task) => {
  it("passes its own tests as given and fixed", async () => {
    const argv = OWN_TESTS[task.info.language as string]!;
    const given = await (await afterAgent(local, task)).exec(argv, { timeoutMs: 60_000 });
    expect(given.exitCode, given.stdout + given.stderr).toBe(0);
    const fixed = await (await afterAgent(local, task, await referenceFix(task.id))).exec(argv, {
      timeoutMs: 60_000,
    });
    expect(fixed.exitCode, fixed.stdout + fixed.stderr).toBe(0);
  });
});
