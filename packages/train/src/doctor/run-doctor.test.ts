// vf doctor's numbers and advice for rewards that cannot teach: a reward that is the same for every
// rollout (exactly, or up to float noise) is named as the problem, not the group size or the batch,
// and rewards print as people write them (0.04, never 0.04000000000000001).
import { Dataset, OpenAIModelClient, type RewardFn, Rubric, SingleTurnEnv } from "@vf-rl/core";
import { lastUserText, type ScriptedServer, startScriptedServer } from "@vf-rl/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDoctorReport } from "./format-doctor-report.ts";
import { runDoctor } from "./run-doctor.ts";

let server: ScriptedServer;
let client: OpenAIModelClient;
beforeAll(async () => {
  server = await startScriptedServer({ reply: (request) => lastUserText(request.messages) });
  client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY" });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

/** The doctor on 6 rows × 4 rollouts of an environment whose reward is `score` × `weight`. */
async function doctor(score: RewardFn<unknown>, weight: number) {
  const rows = Array.from({ length: 6 }, (_, i) => ({
    question: `q${i}`,
    answer: i % 2 === 0 ? "yes" : "no",
  }));
  const env = new SingleTurnEnv({
    dataset: Dataset.fromRows(rows),
    rubric: new Rubric().addReward(score, { name: "score", weight }),
  });
  const report = await runDoctor({
    env,
    envId: "toy",
    clients: client,
    model: "scripted",
    numExamples: 6,
    rolloutsPerExample: 4,
  });
  return { report, text: formatDoctorReport(report).join("\n") };
}

describe("vf doctor on a reward that does not vary", () => {
  it("names a constant reward (0.1 × 0.4 for every rollout) as the problem, and prints it as 0.04", async () => {
    const { report, text } = await doctor(() => 0.1, 0.4);
    expect(report.rollouts).toBe(24);
    expect(report.constantReward).toBe(true);
    expect(report.binary).toBe(false);
    expect(report.advice).toHaveLength(1);
    expect(report.advice[0]).toMatch(
      /^every one of the 24 rollouts scored 0\.04, so the reward tells none apart/,
    );
    expect(report.advice[0]).toContain("The reward itself is the problem, not the batch");
    expect(report.suggestedConfig).toBe("");
    expect(text).toContain("reward          0.04 for every rollout (constant)");
    expect(text).not.toContain("0.04000000000000001");
    expect(text).not.toMatch(/binary|raise rollouts_per_example|batch_size =/);
  });

  it("treats rewards within float noise of each other as constant", async () => {
    const { report } = await doctor(({ prompt }) => 0.5 + Number(lastUserText(prompt).slice(1)) * 1e-9, 1);
    expect(report.constantReward).toBe(true);
    expect(report.groupsWithSpread).toBe(0);
    expect(report.advice[0]).toMatch(/scored 0\.5 \(all within 0\.000001 of it\)/);
  });

  it("says a reward that is 0 for every rollout may be a task too hard for the model", async () => {
    const { report } = await doctor(() => 0, 1);
    expect(report.constantReward).toBe(true);
    expect(report.advice[0]).toMatch(
      /scored 0, .*if the reward can fire at all, the task is too hard for this model/,
    );
  });

  it("still finds binary rewards through float noise, with thresholds written plainly", async () => {
    // 0.1 × 3 is 0.30000000000000004: half the groups all pass, half all fail.
    const { report, text } = await doctor(({ answer }) => (answer === "yes" ? 0.1 : 0), 3);
    expect(report.constantReward).toBe(false);
    expect(report.binary).toBe(true);
    expect(report.allPass).toBe(0.5);
    expect(report.allFail).toBe(0.5);
    expect(report.suggestedConfig).toContain("easy_threshold = 0.3\nhard_threshold = 0\n");
    expect(text).not.toContain("0.30000000000000004");
  });
});
