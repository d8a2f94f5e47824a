// A single-turn environment with any number of rows, for measuring vf eval's own overhead.
import { Dataset, defineEnvironment, lastAssistantText, Rubric, SingleTurnEnv } from "@vf-rl/core";
import { z } from "zod";

export const loadEnvironment = defineEnvironment({
  args: z.object({ rows: z.number().int().positive().default(10_000) }).strict(),
  load: ({ rows }) =>
    new SingleTurnEnv({
      dataset: Dataset.fromRows(
        Array.from({ length: rows }, (_, i) => ({ question: `say ${i}`, answer: `say ${i}` })),
      ),
      rubric: new Rubric().addReward(({ completion, answer }) => lastAssistantText(completion) === answer, {
        name: "exact",
      }),
    }),
});
