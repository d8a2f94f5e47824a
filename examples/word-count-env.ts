// A complete vf environment in one file: a dataset, a prompt format, and a reward.
import { Dataset, defineEnvironment, Rubric, SingleTurnEnv, XMLParser } from "@vf-rl/core";
import { z } from "zod";

const sentences = [
  "the cat sat on the mat",
  "vf is small enough to read",
  "offline by default",
  "two cores suffice",
];
const parser = new XMLParser(["count"], { answerField: "count" });

export const loadEnvironment = defineEnvironment({
  args: z.object({ repeat: z.number().int().positive().default(5) }).strict(),
  load: ({ repeat }) =>
    new SingleTurnEnv({
      dataset: Dataset.fromRows(
        Array.from({ length: repeat }, () => sentences)
          .flat()
          .map((s) => ({ question: `How many words are in: "${s}"?`, answer: String(s.split(" ").length) })),
      ),
      systemPrompt: `Count the words. Reply in this format:\n${parser.formatString()}`,
      rubric: new Rubric({ parser })
        .addReward(({ completion, answer }) => parser.parseAnswer(completion)?.trim() === answer, {
          name: "correct",
        })
        .addReward(({ completion }) => parser.formatScore(completion), { name: "format", weight: 0.1 }),
    }),
});
