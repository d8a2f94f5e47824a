// What an agent can leave behind, and the score it gets, in the local sandbox (@vf-rl/agents): partial
// fixes, code that hangs, fails to load or ends the test process, tests of its own where the hidden
// ones go, a module shadowing unittest, answers written in other ways; and a runtime that cannot run
// the tests at all.
import { localRuntime } from "@vf-rl/agents";
import type { AgentTask, Runtime } from "@vf-rl/core/agents";
import { UserError } from "@vf-rl/core/errors";
import { afterEach, describe, expect, it } from "vitest";
import { answerMatches } from "./answer-file.ts";
import { runnerCounts, tapCounts } from "./hidden-tests.ts";
import { type CodingTasksArgs, loadTaskset } from "./index.ts";
import { unreadTrace, withoutPrograms } from "./test-support.ts";

const runtimes = localRuntime();

/** The runtimes a test made, closed after it. */
const opened: Runtime[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((runtime) => runtime.close()));
});

/** Task `id`'s score after the agent wrote `edits` over its files. */
async function scoreAfter(
  id: string,
  edits: Record<string, string>,
  args: Partial<CodingTasksArgs> = {},
  wrap: (runtime: Runtime) => Runtime = (r) => r,
) {
  const taskset = await loadTaskset(args);
  const all = [...(await taskset.tasks({ split: "train" })), ...(await taskset.tasks({ split: "eval" }))];
  const task: AgentTask = all.find((t) => t.id === id)!;
  const runtime = wrap(await runtimes.create(task, { interceptionUrl: "http://127.0.0.1:9/v1" }));
  opened.push(runtime);
  for (const [path, content] of Object.entries(edits)) await runtime.writeFile(path, content);
  return taskset.score({ task, trace: unreadTrace, runtime });
}

describe("a hidden-tests task", () => {
  it("rewards the fraction of its hidden tests passed with partial credit, 0 without", async () => {
    // py-chunked as given fails 3 of its 6 hidden tests.
    expect(await scoreAfter("py-chunked", {}, { partialCredit: true })).toEqual({
      reward: 0.5,
      metrics: { checks_passed: 0.5, checks_timed_out: 0, checks_crashed: 0 },
    });
    expect((await scoreAfter("py-chunked", {})).reward).toBe(0);
  });

  it("gives code that never returns 0, once the tests' time is up", async () => {
    const hangs = "export function paginate() {\n  for (;;) {}\n}\n";
    const started = Date.now();
    const score = await scoreAfter("js-paginate", { "src/paginate.js": hangs }, { testTimeoutSeconds: 2 });
    expect(score).toEqual({
      reward: 0,
      metrics: { checks_passed: 0, checks_timed_out: 1, checks_crashed: 0 },
    });
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it("counts a module that does not load as failed tests", async () => {
    const python = await scoreAfter("py-median", { "numkit/summary.py": "def median(values:\n" });
    expect(python).toEqual({
      reward: 0,
      metrics: { checks_passed: 0, checks_timed_out: 0, checks_crashed: 0 },
    });
    const javascript = await scoreAfter("js-slugify", { "src/slugify.js": "export function slugify( {\n" });
    expect(javascript).toEqual({
      reward: 0,
      metrics: { checks_passed: 0, checks_timed_out: 0, checks_crashed: 0 },
    });
  });

  it("records code that ends the test process before it reports as crashed", async () => {
    const exits = "import os\n\nos._exit(0)\n";
    const score = await scoreAfter("py-leap-year", { "datekit/calendar_math.py": exits });
    expect(score).toEqual({
      reward: 0,
      metrics: { checks_passed: 0, checks_timed_out: 0, checks_crashed: 1 },
    });
  });

  it("runs its own hidden tests over any the agent put in their place", async () => {
    const passing = 'import { test } from "node:test";\ntest("passes", () => {});\n';
    const js = await scoreAfter("js-paginate", { ".vf-hidden-tests/paginate_hidden_test.js": passing });
    expect(js.reward).toBe(0);
    const pyPassing =
      "import unittest\n\n\nclass T(unittest.TestCase):\n    def test_ok(self):\n        pass\n";
    const py = await scoreAfter("py-chunked", { ".vf-hidden-tests/test_chunks_hidden.py": pyPassing });
    expect(py.reward).toBe(0);
  });

  it("is not fooled by a repository's unittest.py or a printed report", async () => {
    const fake = 'print("vf-hidden-tests-x {\\"tests\\": 6, \\"passed\\": 6}")\nraise SystemExit(0)\n';
    const score = await scoreAfter("py-chunked", { "unittest.py": fake, "json.py": fake });
    expect(score.metrics).toEqual({ checks_passed: 0.5, checks_timed_out: 0, checks_crashed: 0 });
    const printed = 'console.log("# tests 6\\n# pass 6");\nexport function paginate() {}\n';
    expect((await scoreAfter("js-paginate", { "src/paginate.js": printed })).reward).toBe(0);
  });

  it("refuses to score in a runtime that cannot run the language, saying what to do", async () => {
    const scoring = scoreAfter("py-median", {}, {}, withoutPrograms);
    await expect(scoring).rejects.toBeInstanceOf(UserError);
    await expect(scoreAfter("py-median", {}, {}, withoutPrograms)).rejects.toThrow(
      /^the runtime cannot run python3 \(exit code 127: .*python3.*No such file or directory\), which the python tasks' hidden tests need: use a runtime with python3 on its PATH, or leave python out of the taskset's languages$/,
    );
  });
});

describe("an answer-file task", () => {
  it("rewards the right answer however it is spaced or written as a number", async () => {
    for (const written of ["6", "6\n", "  6  \n", "6.0", "+6"]) {
      expect((await scoreAfter("answer-js-logs", { "answer.txt": written })).reward, written).toBe(1);
    }
    expect((await scoreAfter("answer-py-inventory", { "answer.txt": "6028.5200\n" })).reward).toBe(1);
  });

  it("gives a wrong answer, a missing file or an answer elsewhere 0", async () => {
    expect((await scoreAfter("answer-js-logs", { "answer.txt": "12" })).reward).toBe(0);
    expect((await scoreAfter("answer-js-logs", { "answer.txt": "6 addresses" })).reward).toBe(0);
    expect((await scoreAfter("answer-js-logs", { "ANSWER.txt": "6" })).reward).toBe(0);
    expect(await scoreAfter("answer-py-inventory", { "answer.txt": "11969.32" })).toEqual({
      reward: 0,
      metrics: { checks_passed: 0, checks_timed_out: 0, checks_crashed: 0 },
    });
  });
});

describe("reading results", () => {
  it("takes node's last TAP totals, after anything the code printed", () => {
    const stdout = "# tests 9\n# pass 9\nok 1 - a\nnot ok 2 - b\n# tests 2\n# suites 0\n# pass 1\n# fail 1\n";
    expect(tapCounts(stdout)).toEqual({ tests: 2, passed: 1 });
    expect(tapCounts("Error: cannot find module\n")).toBeNull();
  });

  it("takes the unittest runner's line with this run's marker only", () => {
    const stdout = 'other {"tests": 9, "passed": 9}\nm1 {"tests": 4, "passed": 3}\nm1 not json\n';
    expect(runnerCounts(stdout, "m1")).toBeNull();
    expect(runnerCounts('m1 {"tests": 4, "passed": 3}\n', "m1")).toEqual({ tests: 4, passed: 3 });
    expect(runnerCounts('other {"tests": 9, "passed": 9}\n', "m1")).toBeNull();
  });

  it("compares answers as text, or as numbers when both are", () => {
    expect(answerMatches(" 1234.50\n", "1234.5")).toBe(true);
    expect(answerMatches("1,234.50", "1234.50")).toBe(false);
    expect(answerMatches("abc", "abc")).toBe(true);
    expect(answerMatches("", "0")).toBe(false);
  });
});
