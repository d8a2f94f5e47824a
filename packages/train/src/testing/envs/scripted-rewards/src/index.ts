// A toy environment for the train package's tests of what the loop does with known advantages:
// rollout i of every group scores rewards[i] (cycling), whatever the model writes. The default,
// [0, 0.5, 0.5, 1] with groups of 4, gives every group the advantages [-0.5, 0, 0, 0.5].
import { Dataset, defineEnvironment, Rubric, SingleTurnEnv } from "@vf-rl/core";
import { z } from "zod";

export const loadEnvironment = defineEnvironment({
  args: z
    .object({
      rewards: z.array(z.number()).min(1).default([0, 0.5, 0.5, 1]),
      rows: z.number().int().positive().default(16),
    })
    .strict(),
  load: ({ rewards, rows }) =>
    new SingleTurnEnv({
      dataset: Dataset.fromRows(
        Array.from({ length: rows }, (_, i) => ({ question: `say ${i}`, answer: "" })),
      ),
      rubric: new Rubric().addReward(({ state }) => rewards[state.input.rolloutIndex % rewards.length]!, {
        name: "scripted",
      }),
    }),
});
