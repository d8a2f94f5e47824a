// The problems: what they ask, that their values are right, and that the splits share none.
import { calculate } from "@vf-env/gsm8k-calculator";
import { describe, expect, it } from "vitest";
import { drawProblem, drawProblems } from "./problems.ts";

describe("tool-arithmetic's problems", () => {
  it("ask for a product of a three-digit and a two-digit number, maybe plus or minus a three-digit one", () => {
    for (let i = 0; i < 300; i++) {
      const { question, expression, answer } = drawProblem(0, "train", i);
      expect(expression).toMatch(/^[1-9]\d{2} \* [1-9]\d( [+-] [1-9]\d{2})?$/);
      expect(question).toContain(expression);
      expect(answer).toBe(calculate(expression));
    }
  });

  it("are the same on every call, and a row does not depend on how many rows are drawn", () => {
    const few = drawProblems({ seed: 0, numTrain: 5, numEval: 10 });
    const many = drawProblems({ seed: 0, numTrain: 50, numEval: 500 });
    expect(many.eval.slice(0, 10)).toEqual(few.eval);
    expect(drawProblems({ seed: 0, numTrain: 5, numEval: 10 })).toEqual(few);
    expect(drawProblems({ seed: 1, numTrain: 5, numEval: 10 }).eval).not.toEqual(few.eval);
  });

  it("keep every evaluation problem out of the training rows", () => {
    // With the defaults a few training draws repeat an evaluation expression; they are skipped.
    const { train, eval: held } = drawProblems({ seed: 0, numTrain: 5000, numEval: 500 });
    expect(train).toHaveLength(5000);
    expect(held).toHaveLength(500);
    const heldExpressions = new Set(held.map((p) => p.expression));
    expect(train.filter((p) => heldExpressions.has(p.expression))).toEqual([]);
  });
});
