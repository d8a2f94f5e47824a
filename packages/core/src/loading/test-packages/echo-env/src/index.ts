// A minimal environment package, used by the loader's tests.
import { Dataset, defineEnvironment, lastAssistantText, Rubric, SingleTurnEnv } from "@vf-rl/core";
import { z } from "zod";

export const loadEnvironment = defineEnvironment({
  args: z.object({ words: z.array(z.string()).min(1).default(["hello", "world"]) }).strict(),
  load: ({ words }) =>
    new SingleTurnEnv({
      dataset: Dataset.fromRows(words.map((word) => ({ question: word, answer: word }))),
      rubric: new Rubric().addReward(({ completion, answer }) => lastAssistantText(completion) === answer, {
        name: "echoed",
      }),
    }),
});
