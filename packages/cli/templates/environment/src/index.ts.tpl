/**
 * {{name}}: write a sentence backwards, character by character, inside <reversed_text> tags.
 * Reward: how close the reply is to the reversed sentence (0 to 1), plus 0.2 × how well it keeps
 * the format.
 *
 * A starting point, not a benchmark: the built-in model (`vf eval` without -m) was trained on this
 * task in these words, so its rewards move from the first run. Put your own task in its place
 * (data, prompt, reward) and evaluate it with a model of your choice (-m).
 */
import { fileURLToPath } from "node:url";
import { defineEnvironment, lcsRatio, loadJsonl, Rubric, SingleTurnEnv, XMLParser } from "@vf-rl/core";
import { z } from "zod";

const parser = new XMLParser(["reversed_text"], { answerField: "reversed_text" });

/** `text` backwards, one Unicode character at a time. */
const reverse = (text: string) => Array.from(text).reverse().join("");

export const loadEnvironment = defineEnvironment({
  args: z
    .object({
      /** Examples held out for evaluation; the rest are for training. */
      numEval: z.number().int().positive().default(5),
      seed: z.number().int().default(0),
    })
    .strict(),
  load: async ({ numEval, seed }) => {
    // Each row is a sentence (its `question`); its answer is the sentence reversed.
    const rows = (await loadJsonl(fileURLToPath(new URL("../data/sentences.jsonl", import.meta.url)))).map(
      (row) => ({ ...row, answer: reverse(row.question ?? "") }),
    );
    const { train, eval: evalSet } = rows.split({ evalSize: numEval, seed });
    const rubric = new Rubric({ parser })
      .addReward(
        ({ completion, answer, parser }) => {
          const reversed = parser.parseAnswer(completion);
          return reversed === null ? 0 : lcsRatio(reversed, answer);
        },
        { name: "reversal" },
      )
      .addReward(({ completion }) => parser.formatScore(completion), { name: "format", weight: 0.2 });
    return new SingleTurnEnv({
      dataset: train,
      evalDataset: evalSet,
      // The built-in model's own wording for this task (reverse-text's): another wording scores less.
      systemPrompt: `Reverse the text character by character. Put your answer inside <reversed_text> tags:\n${parser.formatString()}`,
      rubric,
      // What a perfect model answers: tests use it as the scripted model's reply.
      referenceCompletion: (input) => [
        { role: "assistant", content: parser.format({ reversed_text: input.answer }) },
      ],
    });
  },
});
