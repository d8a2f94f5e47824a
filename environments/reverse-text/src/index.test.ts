// The rubric and the arguments, in process; e2e.test.ts drives the vf binary.
import type { Messages } from "@vf-rl/core";
import { scoreCompletion } from "@vf-rl/core/testing";
import { describe, expect, it } from "vitest";
import { loadEnvironment, reverseText } from "./index.ts";

const reply = (content: string): Messages => [{ role: "assistant", content }];

async function firstEvalInput(args: Record<string, unknown> = {}) {
  const env = await loadEnvironment(args);
  const [input] = (await env.inputs({ split: "eval", numExamples: 1 })).inputs;
  return { env, input: input! };
}

describe("reverseText", () => {
  it("reverses by character", () => {
    expect(reverseText("How many clips?")).toBe("?spilc ynam woH");
    expect(reverseText("a😀b")).toBe("b😀a");
  });
});

describe("reverse-text rubric", () => {
  it("gives every reference completion the full reward and a perfect format", async () => {
    const env = await loadEnvironment({});
    for (const split of ["eval", "train"] as const) {
      for (const input of (await env.inputs({ split })).inputs) {
        const result = await scoreCompletion(env, input, env.referenceCompletion(input));
        expect(result.metrics).toEqual({ lcs_reward: 1, format: 1 });
        expect(result.reward).toBe(1);
      }
    }
  });

  it("sends a short system prompt and the passage alone; the reference answers in the tags", async () => {
    const { env, input } = await firstEvalInput();
    expect(input.prompt).toHaveLength(2);
    expect(input.prompt[0]!.content).toMatch(/^Reverse the text character by character\. .*<reversed_text>/s);
    const passage = String(input.prompt[1]!.content);
    expect(input.answer).toBe(reverseText(passage));
    expect(env.referenceCompletion(input)).toEqual(
      reply(`<reversed_text>\n${input.answer}\n</reversed_text>`),
    );
  });

  it("gives partial answers partial credit, and nothing when no answer parses", async () => {
    const { env, input } = await firstEvalInput();
    const passage = String(input.prompt[1]!.content);
    const half = input.answer.slice(0, Math.ceil(input.answer.length / 2));
    const partial = await scoreCompletion(env, input, reply(`<reversed_text>${half}</reversed_text>`));
    expect(partial.metrics.lcs_reward).toBeCloseTo((2 * half.length) / (half.length + input.answer.length));
    expect(partial.metrics.format).toBe(1);

    const unreversed = await scoreCompletion(
      env,
      input,
      reply(`<reversed_text>\n${passage}\n</reversed_text>`),
    );
    expect(unreversed.reward).toBeGreaterThan(0);
    expect(unreversed.reward).toBeLessThan(1);

    const untagged = await scoreCompletion(env, input, reply(input.answer));
    expect(untagged.metrics).toEqual({ lcs_reward: 0, format: 0.2 });
    expect((await scoreCompletion(env, input, reply("<reversed_text></reversed_text>"))).reward).toBe(0);
    expect((await scoreCompletion(env, input, [])).metrics).toEqual({ lcs_reward: 0, format: 0 });
  });
});

describe("reverse-text arguments", () => {
  it("keeps train and eval passages apart, sized as asked", async () => {
    const env = await loadEnvironment({ numTrain: 50, numEval: 20 });
    const evalTexts = (await env.inputs({ split: "eval" })).inputs.map((i) => i.answer);
    const trainTexts = (await env.inputs({ split: "train" })).inputs.map((i) => i.answer);
    expect(evalTexts).toHaveLength(20);
    expect(trainTexts).toHaveLength(50);
    expect(trainTexts.filter((t) => evalTexts.includes(t))).toEqual([]);
  });

  it("draws passages in the length range, in an order fixed by the seed", async () => {
    const passages = async (args: Record<string, unknown>) =>
      (await (await loadEnvironment(args)).inputs({ split: "eval" })).inputs.map((i) => i.answer);
    const long = await passages({ minLength: 60, maxLength: 80, numEval: 30 });
    for (const text of long) expect(text.length).toBeGreaterThanOrEqual(60);
    for (const text of long) expect(text.length).toBeLessThanOrEqual(80);
    expect(await passages({ seed: 3 })).toEqual(await passages({ seed: 3 }));
    expect(await passages({ seed: 3 })).not.toEqual(await passages({ seed: 4 }));
  });

  it("says what is wrong with bad arguments", async () => {
    await expect(loadEnvironment({ minLength: 50, maxLength: 20 })).rejects.toThrow(
      /minLength: minLength must not exceed maxLength/,
    );
    await expect(loadEnvironment({ minLength: 900, maxLength: 1000 })).rejects.toThrow(
      /numEval: 100 passages asked, but only \d+ are 900-1000 characters long; lower numEval or widen the range/,
    );
    await expect(loadEnvironment({ max_length: 20 })).rejects.toThrow(/max_length/);
  });
});
