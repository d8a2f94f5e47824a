import { describe, expect, it } from "vitest";
import { AuthoringError, GroupScoringRequiredError, UserError } from "../errors.ts";
import { lastAssistantText, type Messages } from "../messages/message.ts";
import { createState, type RolloutState } from "../rollout/rollout-state.ts";
import { Rubric } from "./rubric.ts";
import { RubricGroup } from "./rubric-group.ts";

function finished(answer: string, reply: string, exampleId = 0): RolloutState {
  const state = createState<Record<string, unknown>>(
    {
      exampleId,
      rolloutIndex: 0,
      prompt: [{ role: "user", content: "What is 2+2?" }],
      answer,
      info: {},
      task: "default",
    },
    { model: "m", sampling: {}, toolDefs: [], signal: new AbortController().signal, data: {} },
  );
  state.completion = [{ role: "assistant", content: reply }] satisfies Messages;
  return state;
}

const exact = ({ completion, answer }: { completion: Messages; answer: string }) =>
  lastAssistantText(completion).trim() === answer ? 1 : 0;

describe("Rubric", () => {
  it("sums weighted rewards and reports every function, metrics included, by name", async () => {
    const rubric = new Rubric()
      .addReward(exact)
      .addReward(() => 0.5, { name: "half", weight: 2 })
      .addMetric(({ completion }) => lastAssistantText(completion).length, { name: "length" });
    const state = finished("4", "4");
    await rubric.scoreRollout(state);
    expect(state.reward).toBe(1 + 2 * 0.5);
    expect(state.metrics).toEqual({ exact: 1, half: 0.5, length: 1 });
  });

  it("scores a raising function 0 and records the error, without stopping the others", async () => {
    const rubric = new Rubric()
      .addReward(
        () => {
          throw new Error("judge down");
        },
        { name: "flaky" },
      )
      .addReward(exact);
    const state = finished("4", "4");
    await rubric.scoreRollout(state);
    expect(state.reward).toBe(1);
    expect(state.metrics.flaky).toBe(0);
    expect(state.scoringErrors).toEqual([
      { function: "flaky", error: expect.objectContaining({ error: "Error", message: "judge down" }) },
    ]);
  });

  it("treats a non-finite result as an error, and booleans as 1 and 0", async () => {
    const rubric = new Rubric()
      .addReward(() => Number.NaN, { name: "nan" })
      .addReward(() => true, { name: "yes" });
    const state = finished("4", "4");
    await rubric.scoreRollout(state);
    expect(state.metrics).toEqual({ nan: 0, yes: 1 });
    expect(state.scoringErrors.map((e) => e.function)).toEqual(["nan"]);
  });

  it("runs functions in order, so an earlier one can leave notes for a later one", async () => {
    const rubric = new Rubric()
      .addMetric(
        ({ state }) => {
          state.data.seen = "first";
          return 0;
        },
        { name: "first" },
      )
      .addReward(({ state }) => (state.data.seen === "first" ? 1 : 0), { name: "second" });
    const state = finished("4", "4");
    await rubric.scoreRollout(state);
    expect(state.metrics.second).toBe(1);
  });

  it("gives group functions the whole group and sets advantages to reward minus the group mean", async () => {
    const rubric = new Rubric().addReward(exact).addGroupReward(
      (group) => {
        const lengths = group.map((r) => lastAssistantText(r.completion).length);
        const shortest = Math.min(...lengths);
        return lengths.map((length) => (length === shortest ? 1 : 0));
      },
      { name: "shortest", weight: 0.5 },
    );
    const states = [finished("4", "4"), finished("4", "four"), finished("4", "5")];
    await rubric.scoreGroup(states);
    expect(states.map((s) => s.reward)).toEqual([1.5, 0, 0.5]);
    expect(states.map((s) => s.advantage)).toEqual([1.5 - 2 / 3, -2 / 3, 0.5 - 2 / 3]);
  });

  it("refuses to score a rollout alone when a group function needs the group", async () => {
    const rubric = new Rubric().addGroupReward((group) => group.map(() => 1), { name: "g" });
    // A UserError naming the setting in words (no flag: core does not know which host asked).
    const refused = rubric.scoreRollout(finished("4", "4"));
    await expect(refused).rejects.toThrow(GroupScoringRequiredError);
    await expect(refused).rejects.toThrow(/score rollouts in groups \(turn independent scoring off\)$/);
  });

  it("records a group function that returns the wrong count as an error for every rollout", async () => {
    const rubric = new Rubric().addGroupReward(() => [1], { name: "short" });
    const states = [finished("4", "4"), finished("4", "4")];
    await rubric.scoreGroup(states);
    expect(states.map((s) => s.reward)).toEqual([0, 0]);
    expect(states[0]!.scoringErrors[0]!.error.message).toMatch(/1 values for 2 rollouts/);
  });

  it("rejects anonymous functions and duplicate names with a hint, as the author's mistake (a UserError)", () => {
    expect(() => new Rubric().addReward(() => 1)).toThrow(/needs a name/);
    expect(() => new Rubric().addReward(exact).addReward(exact)).toThrow(/already in this rubric/);
    expect(() => new Rubric().addReward(exact).addReward(exact)).toThrow(AuthoringError);
    expect(() => new Rubric().addReward(exact, { weight: Number.NaN })).toThrow(UserError);
  });

  it("takes rewards, metrics and group rewards in its options", async () => {
    const rubric = new Rubric({
      rewards: [exact, { fn: () => 1, name: "one", weight: 0.1 }],
      metrics: [{ fn: () => 3, name: "three" }],
    });
    const state = finished("4", "4");
    await rubric.scoreRollout(state);
    expect(state.reward).toBeCloseTo(1.1);
    expect(rubric.names()).toEqual(["exact", "one", "three"]);
  });
});

describe("RubricGroup", () => {
  it("sums rewards and same-name metrics across rubrics", async () => {
    const a = new Rubric().addReward(exact).addMetric(() => 2, { name: "shared" });
    const b = new Rubric().addReward(() => 0.25, { name: "bonus" }).addMetric(() => 3, { name: "shared" });
    const state = finished("4", "4");
    await new RubricGroup([a, b]).scoreRollout(state);
    expect(state.reward).toBe(1.25);
    expect(state.metrics).toEqual({ exact: 1, shared: 5, bonus: 0.25 });
  });
});
