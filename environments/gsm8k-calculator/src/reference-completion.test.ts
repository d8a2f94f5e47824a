import { annotatedExpressions, loadGsm8k } from "@vf-env/gsm8k";
import { describe, expect, it } from "vitest";
import { calculate } from "./calculator.ts";
import { referenceCompletion } from "./reference-completion.ts";

describe("the calculator on GSM8K's own annotations", () => {
  it("computes the published result of every annotation in both splits (27,998)", async () => {
    let checked = 0;
    for (const split of ["train", "test"] as const) {
      for (const example of await loadGsm8k(split)) {
        for (const match of String(example.info.solution).matchAll(/<<([^>]*)>>/g)) {
          // Published results are numbers or fractions ("3/4"): the calculator reads both sides.
          const [expression, published] = match[1]!.split("=");
          const value = Number(calculate(expression!));
          const expected = Number(calculate(published!));
          expect(Math.abs(value - expected), match[1]).toBeLessThanOrEqual(
            1e-6 * Math.max(1, Math.abs(value)),
          );
          checked++;
        }
      }
    }
    expect(checked).toBe(23716 + 4282);
  });
});

describe("referenceCompletion", () => {
  const solution =
    "Janet sells 16 - 3 - 4 = <<16-3-4=9>>9 duck eggs a day.\nShe makes 9 * 2 = $<<9*2=18>>18 every day at the farmer’s market.\n#### 18";

  it("calls calculate on every annotation in one turn, then writes the solution with the boxed answer", () => {
    expect(annotatedExpressions(solution)).toEqual(["16-3-4", "9*2"]);
    expect(referenceCompletion(solution, "18")).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "call_0",
            type: "function",
            function: { name: "calculate", arguments: '{"expression":"16-3-4"}' },
          },
          {
            id: "call_1",
            type: "function",
            function: { name: "calculate", arguments: '{"expression":"9*2"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "call_0", content: "9" },
      { role: "tool", tool_call_id: "call_1", content: "18" },
      {
        role: "assistant",
        content:
          "Janet sells 16 - 3 - 4 = 9 duck eggs a day.\nShe makes 9 * 2 = $18 every day at the farmer’s market.\nThe answer is \\boxed{18}",
      },
    ]);
  });

  it("answers directly when the solution has no annotation the calculator accepts", () => {
    expect(referenceCompletion("Half of 10 is 5.\n#### 5", "5")).toEqual([
      { role: "assistant", content: "Half of 10 is 5.\nThe answer is \\boxed{5}" },
    ]);
    expect(referenceCompletion("It is <<x+1=2>>2.\n#### 2", "2")).toHaveLength(1);
  });
});
