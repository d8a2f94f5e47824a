// `vf env tasks`: an environment's rows printed as env-server task data, through the real binary,
// for a client that owns data loading (prime-rl's orchestrator). The environment has different
// train and eval rows, so the split each command printed can be told apart.

import { runVf } from "@vf-rl/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeEnvironment } from "./fixture-envs.ts";
import { type TempProject, tempProject } from "./temp-project.ts";

/** `splits`: five train rows "train 0" … "train 4" and three eval rows "eval 0" … "eval 2". */
const SPLITS_ENV = `
import { Dataset, defineEnvironment, Rubric, SingleTurnEnv } from "@vf-rl/core";
import { z } from "zod";

const rows = (split: string, n: number) =>
  Dataset.fromRows(
    Array.from({ length: n }, (_, i) => ({ question: \`\${split} \${i}\`, answer: \`\${i}\`, info: { split } })),
  );
export const loadEnvironment = defineEnvironment({
  args: z.object({}).strict(),
  load: () =>
    new SingleTurnEnv({
      dataset: rows("train", 5),
      evalDataset: rows("eval", 3),
      systemPrompt: "Say the number.",
      rubric: new Rubric(),
    }),
});
`;

let project: TempProject;
beforeAll(async () => {
  project = await tempProject();
  await writeEnvironment(project.dir, "splits", SPLITS_ENV);
});
afterAll(() => project.remove());

const tasks = (...flags: string[]) => runVf(["env", "tasks", "splits", ...flags], { cwd: project.dir });

/** The user message of each task. */
const questions = (list: Array<{ prompt: Array<{ role: string; content: string }> }>) =>
  list.map((t) => t.prompt.at(-1)!.content);

describe("vf env tasks", () => {
  it("prints the training rows as a JSON array of task data by default", async () => {
    const result = await tasks();
    expect(result.code).toBe(0);
    const list = JSON.parse(result.stdout);
    expect(questions(list)).toEqual(["train 0", "train 1", "train 2", "train 3", "train 4"]);
    expect(list[1]).toEqual({
      idx: 1,
      prompt: [
        { role: "system", content: "Say the number." },
        { role: "user", content: "train 1" },
      ],
      answer: "1",
      info: { split: "train" },
      task: "default",
    });
  });

  it("prints the eval split with --split eval, and only the first N rows with -n", async () => {
    const result = await tasks("--split", "eval", "-n", "2");
    expect(result.code).toBe(0);
    const list = JSON.parse(result.stdout);
    expect(questions(list)).toEqual(["eval 0", "eval 1"]);
    expect(list.map((t: { info: unknown }) => t.info)).toEqual([{ split: "eval" }, { split: "eval" }]);
  });

  it("prints one task a line with --jsonl", async () => {
    const result = await tasks("--split", "train", "-n", "3", "--jsonl");
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(questions(lines.map((line) => JSON.parse(line)))).toEqual(["train 0", "train 1", "train 2"]);
  });

  it("prints a taskset's tasks, each named by its id, as vf env serve lists them", async () => {
    const result = await runVf(["env", "tasks", "coding-tasks", "--split", "eval", "-n", "2", "--jsonl"]);
    expect(result.code).toBe(0);
    const list = result.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(list.map((task: { idx: number; task: string }) => [task.idx, task.task])).toEqual([
      [0, "js-slugify"],
      [1, "py-median"],
    ]);
    expect(list[0].prompt.at(-1)).toMatchObject({ role: "user" });
  });

  it.each([
    [["--split", "test"], 'error: --split must be train or eval, got "test"'],
    [["-n", "0"], 'error: -n must be at least 1, or -1 for all, got "0"'],
    [["-n", "two"], 'error: -n must be a whole number, got "two"'],
  ])("refuses %j with a one-line error and a non-zero exit, printing no tasks", async (flags, message) => {
    const result = await tasks(...flags);
    expect(result.code).not.toBe(0);
    expect(result.code).not.toBeNull();
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(`${message}\n`);
  });
});
