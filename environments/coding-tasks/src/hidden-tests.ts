/**
 * Runs a task's hidden tests in the runtime the agent left, and counts what passed. The tests are
 * written into a folder of their own (over anything the agent put there) only now, after the agent
 * finished; JavaScript ones run with `node --test`, Python ones with a small unittest runner that
 * keeps the repository from shadowing the standard library.
 */
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Runtime } from "@vf-rl/core/agents";
import { UserError } from "@vf-rl/core/errors";
import { z } from "zod";
import type { Language } from "./catalog.ts";

/** Where the hidden tests are written, relative to the working folder. */
export const HIDDEN_TESTS_DIR = ".vf-hidden-tests";

/** How a run of hidden tests ended. */
export interface TestOutcome {
  /** Tests run; a test file that could not be loaded counts as one failed test. */
  tests: number;
  passed: number;
  /** The run went past its time and was killed: nothing counts as passed. */
  timedOut: boolean;
  /** The run ended without a report (the repository's code ended the test process): nothing passed. */
  crashed: boolean;
}

/** Options of `runHiddenTests`. */
export interface HiddenTestsOptions {
  language: Language;
  /** Test files by name, written into `HIDDEN_TESTS_DIR`. */
  files: Record<string, string>;
  timeoutMs: number;
}

/** The program that runs each language's tests, checked when a run gives no report. */
const PROGRAM: Record<Language, string> = { javascript: "node", python: "python3" };

const UNITTEST_RUNNER = new URL("./unittest-runner.py", import.meta.url);

/** Writes the hidden tests into the runtime and runs them; see `TestOutcome`. */
export async function runHiddenTests(runtime: Runtime, options: HiddenTestsOptions): Promise<TestOutcome> {
  const paths = Object.keys(options.files).map((name) => `${HIDDEN_TESTS_DIR}/${name}`);
  for (const [name, text] of Object.entries(options.files)) {
    await runtime.writeFile(`${HIDDEN_TESTS_DIR}/${name}`, text);
  }
  const marker = `vf-hidden-tests-${randomUUID()}`;
  let argv: string[];
  if (options.language === "javascript") {
    argv = ["node", "--test", "--test-reporter=tap", ...paths];
  } else {
    const runner = `${HIDDEN_TESTS_DIR}/unittest-runner.py`;
    await runtime.writeFile(runner, await readFile(UNITTEST_RUNNER, "utf8"));
    argv = ["python3", "-I", runner, marker, runtime.workdir, ...paths];
  }
  const result = await runtime.exec(argv, { timeoutMs: options.timeoutMs });
  const failed = { tests: Math.max(1, paths.length), passed: 0 };
  if (result.timedOut) return { ...failed, timedOut: true, crashed: false };
  const counts =
    options.language === "javascript" ? tapCounts(result.stdout) : runnerCounts(result.stdout, marker);
  if (counts) return { ...counts, timedOut: false, crashed: false };
  await checkProgram(runtime, options.language, result);
  return { ...failed, timedOut: false, crashed: true };
}

/** The totals of `node --test`'s TAP report (its last `# tests` and `# pass` lines), if it printed them. */
export function tapCounts(stdout: string): { tests: number; passed: number } | null {
  const last = (key: string) => {
    const values = [...stdout.matchAll(new RegExp(`^# ${key} (\\d+)\\s*$`, "gm"))];
    const value = values.at(-1)?.[1];
    return value === undefined ? null : Number(value);
  };
  const tests = last("tests");
  const passed = last("pass");
  return tests === null || passed === null ? null : { tests, passed };
}

const RunnerReport = z.object({ tests: z.number().int().min(0), passed: z.number().int().min(0) }).strict();

/** The unittest runner's report: its last line starting with `marker`, if it printed one. */
export function runnerCounts(stdout: string, marker: string): { tests: number; passed: number } | null {
  const line = stdout
    .split("\n")
    .filter((l) => l.startsWith(`${marker} `))
    .at(-1);
  if (line === undefined) return null;
  try {
    const parsed = RunnerReport.safeParse(JSON.parse(line.slice(marker.length + 1)));
    return parsed.success ? parsed.data : null;
  } catch {
    // Not JSON: the same as no report.
    return null;
  }
}

/**
 * A run without a report is the agent's doing only if the runtime can run the language at all;
 * otherwise it is the runtime's fault, named with what to do.
 */
async function checkProgram(
  runtime: Runtime,
  language: Language,
  run: { exitCode: number | null; stderr: string },
): Promise<void> {
  const program = PROGRAM[language];
  const probe = await runtime.exec([program, "--version"], { timeoutMs: 30_000 });
  if (probe.exitCode === 0) return;
  const said = (probe.stderr || run.stderr).trim().split("\n").at(-1) ?? "";
  throw new UserError(
    `the runtime cannot run ${program} (exit code ${probe.exitCode}${said ? `: ${said}` : ""}), which the ${language} tasks' hidden tests need: use a runtime with ${program} on its PATH, or leave ${language} out of the taskset's languages`,
  );
}
