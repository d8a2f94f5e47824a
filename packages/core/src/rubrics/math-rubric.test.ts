import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Messages } from "../messages/message.ts";
import { MaybeThinkParser } from "../parsers/maybe-think-parser.ts";
import { XMLParser } from "../parsers/xml-parser.ts";
import { createState, type RolloutState } from "../rollout/rollout-state.ts";
import { lenientCorrectAnswer, MathRubric } from "./math-rubric.ts";

function finished(answer: string, ...replies: string[]): RolloutState {
  const state = createState<Record<string, unknown>>(
    {
      exampleId: 0,
      rolloutIndex: 0,
      prompt: [{ role: "user", content: "Solve." }],
      answer,
      info: {},
      task: "math",
    },
    { model: "m", sampling: {}, toolDefs: [], signal: new AbortController().signal, data: {} },
  );
  state.completion = replies.map((content) => ({ role: "assistant", content })) satisfies Messages;
  return state;
}

async function correct(rubric: MathRubric, answer: string, ...replies: string[]): Promise<number> {
  const state = finished(answer, ...replies);
  await rubric.scoreRollout(state);
  expect(state.scoringErrors).toEqual([]);
  return state.metrics.correct_answer!;
}

describe("MathRubric", () => {
  const rubric = new MathRubric();

  it("has one reward, correct_answer, and a MaybeThinkParser", () => {
    expect(rubric.names()).toEqual(["correct_answer"]);
    expect(rubric.entries[0]!.weight).toBe(1);
    expect(rubric.parser).toBeInstanceOf(MaybeThinkParser);
  });

  it.each([
    ["\\boxed{1}", "1"],
    ["\\boxed{\\frac{1}{2}}", "0.5"],
    ["<think>maybe \\boxed{3}</think> so \\boxed{4}", "4"],
    ["\\boxed{x+1}", "x + 1"],
    ["The answer is \\boxed{\\$18}.", "18"],
  ])("scores %j against %j as 1", async (reply, answer) => {
    expect(await correct(rubric, answer, reply)).toBe(1);
  });

  it.each([
    ["\\boxed{1}", "2"],
    ["\\boxed{\\frac{1}{3}}", "0.5"],
    ["<think>\\boxed{4}</think> so \\boxed{5}", "4"],
    ["I cannot tell.", "4"],
    ["", "4"],
  ])("scores %j against %j as 0", async (reply, answer) => {
    expect(await correct(rubric, answer, reply)).toBe(0);
  });

  it("gives nothing for an answer outside the box, so sprayed numbers earn no reward", async () => {
    expect(await correct(rubric, "18", "She makes $18 every day.")).toBe(0);
    expect(await correct(rubric, "4", "1 2 3 4")).toBe(0);
    expect(await correct(rubric, "70000", "#### 70,000")).toBe(0);
  });

  it("falls back to the last number after the thinking when asked to be lenient", async () => {
    const lenient = new MathRubric({ lenient: true });
    expect(await correct(lenient, "18", "She makes $18 every day.")).toBe(1);
    expect(await correct(lenient, "18", "<think>maybe 18</think> It is 17.")).toBe(0);
    expect(await correct(lenient, "70000", "#### 70,000")).toBe(1);
    expect(await correct(lenient, "4", "\\boxed{4}")).toBe(1);
  });

  it("offers the lenient check as a metric beside the strict reward", async () => {
    const both = new MathRubric().addMetric(lenientCorrectAnswer, { name: "lenient_correct_answer" });
    const state = finished("18", "She makes $18 every day.");
    await both.scoreRollout(state);
    expect(state.metrics).toEqual({ correct_answer: 0, lenient_correct_answer: 1 });
    expect(state.reward).toBe(0);
  });

  it("judges the last assistant message", async () => {
    expect(await correct(rubric, "2", "\\boxed{2}", "Sorry, \\boxed{3}")).toBe(0);
    expect(await correct(rubric, "3", "\\boxed{2}", "Sorry, \\boxed{3}")).toBe(1);
  });

  it("takes a whole GSM8K solution as the answer", async () => {
    const firstLine = readFileSync(new URL("./math-answer.fixture.jsonl", import.meta.url), "utf8").split(
      "\n",
    )[0]!;
    const row = JSON.parse(firstLine) as { answer: string };
    expect(row.answer).toContain("#### 18");
    expect(await correct(rubric, row.answer, "Janet makes \\boxed{\\$18}")).toBe(1);
    expect(await correct(rubric, row.answer, "Janet makes \\boxed{16}")).toBe(0);
  });

  it("weights the reward and accepts another parser", async () => {
    const xml = new MathRubric({ parser: new XMLParser(["reasoning", "answer"]), weight: 2 });
    const state = finished("0.75", "<reasoning>3 of 4</reasoning><answer>3/4</answer>");
    await xml.scoreRollout(state);
    expect(state.metrics.correct_answer).toBe(1);
    expect(state.reward).toBe(2);
    expect(await correct(xml, "12", "<reasoning>no answer tag, but 12</reasoning>")).toBe(0);
  });

  it("can be extended like any rubric", async () => {
    const withLength = new MathRubric().addMetric(({ completion }) => completion.length, { name: "turns" });
    const state = finished("4", "\\boxed{4}");
    await withLength.scoreRollout(state);
    expect(state.metrics).toEqual({ correct_answer: 1, turns: 1 });
  });
});
