// An environment package's entry, as packages/core/README.md (the authoring guide) shows it; its
// test is the guide's "Testing an environment offline" (capitals.test.ts).
import { Dataset, defineEnvironment, lastAssistantText, Rubric, SingleTurnEnv } from "@vf-rl/core";
import { z } from "zod";

const rubric = new Rubric().addReward(
  ({ completion, answer }) => (lastAssistantText(completion).trim() === answer ? 1 : 0),
  { name: "correct_city" },
);

export const loadEnvironment = defineEnvironment({
  args: z.object({ numEval: z.number().int().positive().default(3) }).strict(),
  load: ({ numEval }) =>
    new SingleTurnEnv({
      evalDataset: Dataset.fromRows(capitals().slice(0, numEval)),
      systemPrompt: "Answer with the city only.",
      rubric,
      // What a perfect model answers: tests use it as the scripted model's reply.
      referenceCompletion: (input) => [{ role: "assistant", content: input.answer }],
    }),
});

function capitals() {
  return [
    { question: "What is the capital of France?", answer: "Paris" },
    { question: "What is the capital of Japan?", answer: "Tokyo" },
    { question: "What is the capital of Kenya?", answer: "Nairobi" },
    { question: "What is the capital of Peru?", answer: "Lima" },
  ];
}
