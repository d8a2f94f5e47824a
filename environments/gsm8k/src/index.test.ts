// The rubric on real rows and the arguments, in process; e2e.test.ts drives the vf binary.
import type { Messages } from "@vf-rl/core";
import { scoreCompletion } from "@vf-rl/core/testing";
import { describe, expect, it } from "vitest";
import { loadEnvironment } from "./index.ts";

const reply = (content: string): Messages => [{ role: "assistant", content }];

describe("gsm8k rubric", () => {
  it("gives every reference solution of both splits the full reward", async () => {
    const env = await loadEnvironment({});
    for (const split of ["eval", "train"] as const) {
      const { inputs } = await env.inputs({ split });
      expect(inputs.length).toBe(split === "eval" ? 1319 : 7473);
      for (const input of inputs) {
        const result = await scoreCompletion(env, input, env.referenceCompletion(input));
        expect(result.metrics, `row ${input.exampleId}`).toEqual({
          correct_answer: 1,
          boxed_answer: 1,
          lenient_correct_answer: 1,
        });
        expect(result.reward).toBe(1);
      }
    }
  });

  it("asks for step-by-step reasoning and a boxed answer, with the question as the user turn", async () => {
    const env = await loadEnvironment({ numEval: 1 });
    const [input] = (await env.inputs({ split: "eval" })).inputs;
    expect(input!.prompt[0]).toMatchObject({
      role: "system",
      content: expect.stringMatching(/step by step.*\\boxed\{\}/),
    });
    expect(input!.prompt[1]).toMatchObject({
      role: "user",
      content: expect.stringMatching(/^Janet’s ducks/),
    });
    expect(env.referenceCompletion(input!)).toEqual(
      reply(
        "Janet sells 16 - 3 - 4 = 9 duck eggs a day.\nShe makes 9 * 2 = $18 every day at the farmer’s market.\nThe answer is \\boxed{18}",
      ),
    );
  });

  it("rewards only a boxed answer; a right number without a box counts in the lenient metric alone", async () => {
    const env = await loadEnvironment({ numEval: 1 });
    const [input] = (await env.inputs({ split: "eval" })).inputs;
    expect((await scoreCompletion(env, input!, reply("So she makes \\boxed{20}."))).metrics).toEqual({
      correct_answer: 0,
      boxed_answer: 1,
      lenient_correct_answer: 0,
    });
    const unboxed = await scoreCompletion(env, input!, reply("She makes $18 a day."));
    expect(unboxed.metrics).toEqual({ correct_answer: 0, boxed_answer: 0, lenient_correct_answer: 1 });
    expect(unboxed.reward).toBe(0);
    expect((await scoreCompletion(env, input!, reply("2 5 9 18"))).reward).toBe(0);
    expect(
      (await scoreCompletion(env, input!, reply("<think>maybe \\boxed{18}</think> I give up."))).reward,
    ).toBe(0);
    expect((await scoreCompletion(env, input!, [])).reward).toBe(0);
  });

  it("rewards the last number when asked to be lenient", async () => {
    const env = await loadEnvironment({ numEval: 1, lenient: true });
    const [input] = (await env.inputs({ split: "eval" })).inputs;
    expect((await scoreCompletion(env, input!, reply("She makes $18 a day."))).reward).toBe(1);
    expect((await scoreCompletion(env, input!, reply("She makes \\boxed{18} a day."))).reward).toBe(1);
  });
});

describe("gsm8k arguments", () => {
  it("caps the rows and evaluates on the test split unless told otherwise", async () => {
    const env = await loadEnvironment({ numEval: 3, numTrain: 5 });
    expect((await env.inputs({ split: "eval" })).inputs.map((i) => i.answer)).toEqual(["18", "3", "70000"]);
    expect((await env.inputs({ split: "train" })).inputs).toHaveLength(5);
    const onTrain = await loadEnvironment({ split: "train", numEval: 1 });
    const [first] = (await onTrain.inputs({ split: "eval" })).inputs;
    expect(first!.prompt[1]!.content).toMatch(/^Natalia sold clips to 48 of her friends/);
  });

  it("orders the training rows by the seed", async () => {
    const answers = async (seed: number) =>
      (await (await loadEnvironment({ numTrain: 8, seed })).inputs({ split: "train" })).inputs.map(
        (i) => i.exampleId,
      );
    expect(await answers(1)).toEqual(await answers(1));
    expect(await answers(1)).not.toEqual(await answers(2));
  });

  it("rejects unknown or bad arguments with the field's name", async () => {
    await expect(loadEnvironment({ num_eval: 3 })).rejects.toThrow(/num_eval/);
    await expect(loadEnvironment({ split: "validation" })).rejects.toThrow(/split/);
    await expect(loadEnvironment({ numEval: 0 })).rejects.toThrow(/numEval/);
  });
});
