// Saved rows scored again offline: state columns the run saved are read back, any other key of
// state.data is that function's UnsavedStateError; a judge is refused with OfflineModelCallError and
// never reached; a group reward sees its example's rows together; a rollout that never began scores
// 0 with no function run; the environment's own metrics keep their saved values.
import { describe, expect, it } from "vitest";
import { Dataset } from "../datasets/index.ts";
import { SingleTurnEnv } from "../envs/single-turn-env.ts";
import { lastAssistantText } from "../messages/message.ts";
import { RolloutRecord } from "../records/rollout-record.ts";
import { JudgeRubric } from "../rubrics/judge-rubric.ts";
import { Rubric } from "../rubrics/rubric.ts";
import { disconnectJudges } from "./offline-judges.ts";
import { rescoreRecords } from "./rescore-records.ts";

const dataset = Dataset.fromRows([{ question: "say a", answer: "a" }]);

/** A saved row of example `exampleId` whose reply was `reply`. */
const row = (exampleId: number, reply: string, extra: Partial<RolloutRecord> = {}): RolloutRecord =>
  RolloutRecord.parse({
    example_id: exampleId,
    prompt: [{ role: "user", content: "say a" }],
    completion: [{ role: "assistant", content: reply }],
    answer: "a",
    reward: 0.5,
    metrics: { num_turns: 7 },
    trajectory: [{ finish_reason: "stop", is_truncated: false, tokens: null }],
    ...extra,
  });

describe("rescoreRecords", () => {
  it("reads saved state columns and reports an unsaved key against its function only", async () => {
    const rubric = new Rubric()
      .addReward(({ completion, answer }) => lastAssistantText(completion) === answer, { name: "exact" })
      .addMetric(({ state }) => Number((state.data as Record<string, unknown>).tries), { name: "tries" })
      .addMetric(({ state }) => Number((state.data as Record<string, unknown>).board), { name: "board" });
    const env = new SingleTurnEnv({ dataset, rubric });
    const [rescored] = await rescoreRecords(env, [row(0, "a", { state: { tries: 3 } })], "m");
    expect(rescored!.reward).toBe(1);
    // num_turns is the environment's own measure of the rollout, kept as saved.
    expect(rescored!.metrics).toEqual({ exact: 1, tries: 3, board: 0, num_turns: 7 });
    expect(rescored!.scoring_errors).toEqual([
      expect.objectContaining({
        function: "board",
        error: expect.objectContaining({ error: "UnsavedStateError" }),
      }),
    ]);
  });

  it("refuses a judge's call offline, as that function's scoring error", async () => {
    let reached = false;
    const client = {
      baseUrl: "http://judge",
      chat: async () => {
        reached = true;
        throw new Error("reached the judge");
      },
    };
    const rubric = new JudgeRubric({ client, model: "judge-1" });
    rubric.addReward(async (ctx) => (await rubric.judge(ctx)) === "yes", { name: "judged" });
    const env = new SingleTurnEnv({ dataset, rubric });
    expect(disconnectJudges(env.rubric)).toBe(1);
    const [rescored] = await rescoreRecords(env, [row(0, "a")], "m");
    expect(reached).toBe(false);
    expect(rescored!.reward).toBe(0);
    expect(rescored!.scoring_errors[0]!.error).toMatchObject({
      error: "OfflineModelCallError",
      message: expect.stringContaining("asks the model judge-1"),
    });
  });

  it("scores each example's rows as one group, and a rollout that never began as 0", async () => {
    const groups: number[] = [];
    const rubric = new Rubric().addGroupReward(
      (group) => {
        groups.push(group.length);
        return group.map((_, i) => i);
      },
      { name: "rank" },
    );
    const env = new SingleTurnEnv({ dataset, rubric });
    const failed = row(1, "", {
      completion: [],
      trajectory: [],
      error: { error: "ModelHttpError", message: "503" },
    });
    const rescored = await rescoreRecords(env, [row(0, "x"), failed, row(0, "y")], "m");
    expect(groups).toEqual([2]);
    expect(rescored.map((r) => r.reward)).toEqual([0, 0, 1]);
    expect(rescored[1]!.metrics).toEqual({ rank: 0, num_turns: 7 });
  });
});
