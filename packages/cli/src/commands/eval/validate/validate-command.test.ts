// `vf eval validate` through the real vf binary: bundled environments and the coding taskset (its
// reference fixes, in the subprocess runtime) validate clean; an environment with a prompt too long,
// a reference below the maximum and a reward that raises fails with each kind named and exit 1; a
// dataset with a broken row does not load (exit 1); a bad flag is usage (exit 2).
import { rm } from "node:fs/promises";
import { runVf } from "@vf-rl/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempProject, writeEnvPackage } from "../temp-env-project.ts";

/** Rows 0 and 1 are sound (1 is long); the reference of row 2 is wrong; row 3's reward raises. */
const CHECK_ME = `
import { Dataset, defineEnvironment, lastAssistantText, Rubric, SingleTurnEnv } from "@vf-rl/core";
import { z } from "zod";
const rows = [
  { question: "say cat", answer: "cat" },
  { question: "say " + "very ".repeat(60) + "long", answer: "long" },
  { question: "say dog", answer: "dog" },
  { question: "say boom", answer: "boom" },
];
export const loadEnvironment = defineEnvironment({
  args: z.object({}).strict(),
  load: () =>
    new SingleTurnEnv({
      evalDataset: Dataset.fromRows(rows),
      rubric: new Rubric().addReward(
        ({ completion, answer }) => {
          if (answer === "boom") throw new Error("cannot score boom");
          return lastAssistantText(completion) === answer;
        },
        { name: "exact" },
      ),
      referenceCompletion: (input) => [{ role: "assistant", content: input.answer === "dog" ? "cat" : input.answer }],
    }),
});
`;

/** Its second row has a message of no role chat knows. */
const BROKEN_ROWS = `
import { Dataset, defineEnvironment, Rubric, SingleTurnEnv } from "@vf-rl/core";
import { z } from "zod";
export const loadEnvironment = defineEnvironment({
  args: z.object({}).strict(),
  load: () => new SingleTurnEnv({ evalDataset: Dataset.fromRows([{ question: "q", answer: "a" }, { prompt: [{ role: "robot", content: "beep" }], answer: "b" }]), rubric: new Rubric() }),
});
`;

let project: string;

beforeAll(async () => {
  project = await tempProject("vf-validate-");
  await writeEnvPackage(project, "check-me", CHECK_ME);
  await writeEnvPackage(project, "broken-rows", BROKEN_ROWS);
});

// The project's node_modules is a link to the repository's: rm removes the link, not what it points to.
afterAll(() => rm(project, { recursive: true, force: true }));

describe("vf eval validate", () => {
  // wordle's rubric declares its maximum (2: a win in one guess), which the sum of its weights is not.
  it.each(["reverse-text", "gsm8k", "tool-arithmetic", "wordle"])("passes every row of %s", async (env) => {
    const result = await runVf(["eval", "validate", env, "-n", "10"]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain(`${env}: 10 rows checked, 10 references scored; longest prompt`);
    expect(result.stdout).toContain("all rows pass");
    expect(result.code).toBe(0);
  });

  it("checks the coding taskset's reference fixes in the subprocess runtime", async () => {
    const result = await runVf(["eval", "validate", "coding-tasks", "--runtime", "subprocess", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ checked: 5, referencesScored: 5, maxReward: 1, failures: [] });
  });

  it("names each kind of failure with its rows, and exits 1", async () => {
    const flags = ["eval", "validate", "check-me", "--max-prompt-tokens", "100"];
    const result = await runVf(flags, { cwd: project });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout.split("\n")).toEqual([
      "check-me: 4 rows checked, 4 references scored; longest prompt 312 tokens, limit 100",
      "✗ prompt too long: 1 row",
      "  row 1: the prompt is 312 tokens, over the limit of 100",
      "✗ reward function raised on the reference: 1 row",
      "  row 3: exact raised on the reference: Error: cannot score boom",
      "✗ reference below the maximum reward: 2 rows",
      "  row 2: the reference scores 0 of 1 (exact 0, num_turns 1)",
      "  row 3: the reference scores 0 of 1 (exact 0, num_turns 1)",
      "",
    ]);
    const json = JSON.parse((await runVf([...flags, "--json", "-n", "2"], { cwd: project })).stdout);
    expect(json.checked).toBe(2);
    expect(json.failures).toEqual([
      { kind: "too_long", id: "1", message: "the prompt is 312 tokens, over the limit of 100" },
    ]);
  });

  it("reports an environment whose rows do not load, and exits 1", async () => {
    const result = await runVf(["eval", "validate", "broken-rows"], { cwd: project });
    expect(result.code).toBe(1);
    expect(result.stdout.split("\n").slice(0, 2)).toEqual([
      "broken-rows: 0 rows checked, 0 references scored",
      "✗ did not load",
    ]);
    expect(result.stdout).toMatch(/^ {2}broken-rows: dataset row 1: prompt\[0\]\.role: /m);
  });

  it("exits 2 for bad usage", async () => {
    expect((await runVf(["eval", "validate", "reverse-text", "--split", "test"])).code).toBe(2);
    expect((await runVf(["eval", "validate", "no-such-env"], { cwd: project })).code).toBe(2);
  });
});
