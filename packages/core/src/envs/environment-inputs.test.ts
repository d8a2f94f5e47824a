import { describe, expect, it } from "vitest";
import { Dataset } from "../datasets/index.ts";
import { UserError } from "../errors.ts";
import { Rubric } from "../rubrics/rubric.ts";
import { SingleTurnEnv } from "./single-turn-env.ts";

const env = new SingleTurnEnv({
  dataset: Dataset.fromRows([1, 2, 3, 4].map((n) => ({ question: `${n}`, answer: `${n}` }))),
  rubric: new Rubric().addReward(() => 1, { name: "one" }),
});

describe("Environment.inputs", () => {
  it("takes the first n rows, each repeated per rollout, and -1 for every row", async () => {
    const two = await env.inputs({ split: "eval", numExamples: 2, rolloutsPerExample: 3 });
    expect(two.inputs.map((i) => i.exampleId)).toEqual([0, 0, 0, 1, 1, 1]);
    const all = await env.inputs({ split: "eval", numExamples: -1 });
    expect(all.inputs).toHaveLength(4);
  });

  it("refuses a negative count other than -1 instead of evaluating every row", async () => {
    const attempt = env.inputs({ split: "eval", numExamples: -5 });
    await expect(attempt).rejects.toThrow(UserError);
    await expect(attempt).rejects.toThrow("must be a whole number ≥ 1, or -1 for all, got -5");
  });
});
