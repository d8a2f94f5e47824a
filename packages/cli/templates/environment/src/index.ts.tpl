/**
 * {{name}}: answer a capital-city question inside <answer> tags.
 * Reward: 1 for the right city (case and spacing ignored), plus 0.2 × how well the reply keeps the format.
 */
import { fileURLToPath } from "node:url";
import { defineEnvironment, loadJsonl, Rubric, SingleTurnEnv, XMLParser } from "@vf-rl/core";
import { z } from "zod";

const parser = new XMLParser(["answer"]);

const normalize = (text: string) => text.trim().toLowerCase().replace(/\s+/g, " ");

export const loadEnvironment = defineEnvironment({
  args: z
    .object({
      /** Examples held out for evaluation; the rest are for training. */
      numEval: z.number().int().positive().default(4),
      seed: z.number().int().default(0),
    })
    .strict(),
  load: async ({ numEval, seed }) => {
    const rows = await loadJsonl(fileURLToPath(new URL("../data/capitals.jsonl", import.meta.url)));
    const { train, eval: evalSet } = rows.split({ evalSize: numEval, seed });
    const rubric = new Rubric({ parser })
      .addReward(
        ({ completion, answer, parser }) =>
          normalize(parser.parseAnswer(completion) ?? "") === normalize(answer),
        {
          name: "correct_city",
        },
      )
      .addReward(({ completion }) => parser.formatScore(completion), { name: "format", weight: 0.2 });
    return new SingleTurnEnv({
      dataset: train,
      evalDataset: evalSet,
      systemPrompt: `Answer with the city only, in this format:\n${parser.formatString()}`,
      rubric,
      // What a perfect model answers: tests use it as the scripted model's reply.
      referenceCompletion: (input) => [{ role: "assistant", content: parser.format({ answer: input.answer }) }],
    });
  },
});
