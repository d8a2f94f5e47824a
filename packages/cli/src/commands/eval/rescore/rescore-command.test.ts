// `vf eval rescore` end to end: a run of a small environment made through the real vf binary against
// the scripted model, its environment's rubric then edited, and the run scored again offline. The new
// run follows the new rubric and the summary names what changed; an unchanged rubric changes nothing;
// a reward that reads state the run did not save is that function's scoring error. A taskset's agent
// run is scored again from its saved traces, unless its taskset reads the agent's working folder
// (coding-tasks), which is said in one line.
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { byPrompt, fixedReply, lastUserText } from "@vf-rl/core/testing";
import { evalScripted, runVf } from "@vf-rl/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempProject, writeEnvPackage } from "../temp-env-project.ts";

/** An environment whose rows ask to say a word; `rubric` is the source of its Rubric. */
const envSource = (rubric: string) => `
import { Dataset, defineEnvironment, lastAssistantText, Rubric, SingleTurnEnv } from "@vf-rl/core";
import { z } from "zod";
const rows = ["cat", "heron", "ox"].map((word) => ({ question: "say " + word, answer: word }));
export const loadEnvironment = defineEnvironment({
  args: z.object({}).strict(),
  load: () => new SingleTurnEnv({ evalDataset: Dataset.fromRows(rows), rubric: ${rubric} }),
});
`;

/** Version 1: 1 when the reply holds the word; its length as a metric. */
const SAYS_IT = `new Rubric()
  .addReward(({ completion, answer }) => lastAssistantText(completion).includes(answer), { name: "says_it" })
  .addMetric(({ completion }) => lastAssistantText(completion).length, { name: "length" })`;

/** Version 2: pays by the word's length (short words less), and a metric reading unsaved state. */
const BY_LENGTH = `new Rubric()
  .addReward(({ answer }) => Math.min(1, answer.length / 5), { name: "says_it" })
  .addMetric(({ state }) => (state.data.notes ? 1 : 0), { name: "noted" })`;

/** A taskset of two tasks (answers 4 and 5) scored from the agent's last reply: 1 when it holds `expected`. */
const tasksetSource = (expected: string) => `
import { AgentTask } from "@vf-rl/core/agents";
import { contentText } from "@vf-rl/core";
const tasks = ["4", "5"].map((answer, exampleId) =>
  AgentTask.parse({ id: "abc"[exampleId], exampleId, prompt: [{ role: "user", content: "say " + answer }], answer }),
);
export function loadTaskset() {
  return {
    id: "say-tasks",
    tasks: async ({ split }) => (split === "eval" ? tasks : []),
    score: async ({ task, trace }) => {
      const reply = contentText(trace.calls.at(-1)?.reply?.content ?? "");
      return { reward: reply.includes(${expected}) ? 1 : 0, metrics: {} };
    },
  };
}
`;

let project: string;
let runDir: string;

beforeAll(async () => {
  project = await tempProject("vf-rescore-");
  await writeEnvPackage(project, "say-word", envSource(SAYS_IT));
  // The scripted model echoes the question ("say cat"): every reply holds its word.
  const run = await evalScripted("say-word", {
    cwd: project,
    server: { reply: byPrompt(lastUserText) },
    flags: ["-n", "3", "-r", "2", "-s", "-o", join(project, "outputs")],
  });
  expect(run.code, run.stderr).toBe(0);
  expect(run.summary.avg_reward).toBe(1);
  const folder = join(project, "outputs", "evals", "say-word--scripted");
  runDir = join(folder, (await readdir(folder))[0]!);
});

// The project's node_modules is a link to the repository's: rm removes the link, not what it points to.
afterAll(() => rm(project, { recursive: true, force: true }));

describe("vf eval rescore", () => {
  it("reports no change when the rubric is unchanged, and saves a new run naming its source", async () => {
    const result = await runVf(["eval", "rescore", runDir, "--json"], { cwd: project });
    expect(result.code, result.stderr).toBe(0);
    const out = JSON.parse(result.stdout);
    expect(out.diff.reward).toEqual({ before: 1, after: 1, changed: 0 });
    expect(out.diff.largest).toEqual([]);
    expect(out.metadata.rescore_of.dir).toBe(runDir);
    expect(out.run_dir).not.toBe(runDir);
    const rows = (await readFile(join(out.run_dir, "results.jsonl"), "utf8")).trim().split("\n");
    expect(rows).toHaveLength(6);

    const text = await runVf(["eval", "rescore", runDir], { cwd: project });
    expect(text.stdout).toContain("reward  1.000 → 1.000  (unchanged)");
    expect(text.stdout).toContain("no reward changed");
  });

  it("scores with the edited rubric, names what changed, and reports unsaved state per function", async () => {
    await writeEnvPackage(project, "say-word", envSource(BY_LENGTH));
    const result = await runVf(["eval", "rescore", runDir, "--json"], { cwd: project });
    expect(result.code, result.stderr).toBe(0);
    const { diff, metadata, run_dir } = JSON.parse(result.stdout);
    // cat 0.6, heron 1, ox 0.4: four of six rollouts changed.
    expect(diff.reward.before).toBe(1);
    expect(diff.reward.after).toBeCloseTo((0.6 + 1 + 0.4) / 3);
    expect(diff.reward.changed).toBe(4);
    expect(diff.largest.map((c: { after: number }) => c.after)).toEqual([0.4, 0.4, 0.6, 0.6]);
    // "say cat", "say heron", "say ox": 22 characters over three rows; the new rubric has no length.
    expect(diff.metrics.length).toEqual({ before: 22 / 3, after: null, changed: 6 });
    expect(diff.scoringErrors).toEqual({ noted: 6 });
    expect(diff.scoringErrorMessages.noted).toContain('state "notes" was not saved with this run');
    expect(metadata.avg_reward).toBeCloseTo(2 / 3);
    const saved = JSON.parse((await readFile(join(run_dir, "metadata.json"), "utf8")).toString());
    expect(saved.rescore_of.run_id).toBe(runDir.split("/").at(-1));

    const text = await runVf(["eval", "rescore", runDir], { cwd: project });
    expect(text.stdout).toContain("reward  1.000 → 0.667  (4 of 6 rollouts changed)");
    expect(text.stdout).toContain("length  7.333 → absent");
    expect(text.stdout).toMatch(/example \d+ rollout 0: 1\.000 → 0\.400/);
    expect(text.stdout).toContain("scoring error in noted on 6 of 6 rollouts: UnsavedStateError");
    await writeEnvPackage(project, "say-word", envSource(SAYS_IT));
  });

  it("re-scores a taskset's agent run from its saved traces, with the taskset's score as it is now", async () => {
    await writeEnvPackage(project, "say-tasks", tasksetSource('"4"'), { kind: "taskset" });
    const run = await evalScripted("say-tasks", {
      cwd: project,
      server: { reply: fixedReply("The answer is 4.") },
      flags: ["--runtime", "subprocess", "-n", "2", "-r", "1", "-s", "-o", join(project, "agents")],
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.summary.avg_reward).toBe(1);
    const folder = join(project, "agents", "evals", "say-tasks--scripted--bash");
    const agentRun = join(folder, (await readdir(folder))[0]!);
    await writeEnvPackage(project, "say-tasks", tasksetSource("task.answer"), { kind: "taskset" });
    const result = await runVf(["eval", "rescore", agentRun, "--json"], { cwd: project });
    expect(result.code, result.stderr).toBe(0);
    // Task "b" asks for 5: the model said 4, which the old score took and the new one does not.
    const { diff } = JSON.parse(result.stdout);
    expect(diff.reward).toEqual({ before: 1, after: 0.5, changed: 1 });
    expect(diff.largest).toEqual([{ exampleId: 1, rolloutIndex: 0, before: 1, after: 0 }]);
  });

  it("says in one line that a coding-tasks run cannot be re-scored: its score read the agent's folder", async () => {
    const run = await evalScripted("coding-tasks", {
      cwd: project,
      server: { reply: fixedReply("I cannot fix this.") },
      flags: ["--runtime", "subprocess", "-n", "1", "-r", "1", "-s", "-o", join(project, "coding")],
    });
    expect(run.code, run.stderr).toBe(0);
    const folder = join(project, "coding", "evals", "coding-tasks--scripted--bash");
    const result = await runVf(["eval", "rescore", join(folder, (await readdir(folder))[0]!)], {
      cwd: project,
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      "error: the taskset coding-tasks scores the agent's working folder, which a saved run does not keep, so its runs cannot be re-scored offline: run the evaluation again to score it again",
    );
  });
});
