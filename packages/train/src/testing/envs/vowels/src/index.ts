// A toy environment for the train package's tests, learnable by a tiny fresh model in a few steps:
// the reward is the share of vowels among the letters and spaces the model writes (continuous, so
// groups have spread from the start). With turns > 1 the environment answers "more" after each
// model turn, which makes multi-turn rollouts whose environment tokens must be masked out. With
// solved > 0 the first `solved` rows score 1 whatever is written: rows a curriculum should retire.
import { Dataset, defineEnvironment, type Messages, MultiTurnEnv, Rubric } from "@vf-rl/core";
import { z } from "zod";

/** Share of a text's characters that are vowels (0 for an empty text). */
export function vowelShare(text: string): number {
  if (text.length === 0) return 0;
  let vowels = 0;
  for (const c of text) if ("aeiouAEIOU".includes(c)) vowels += 1;
  return vowels / text.length;
}

class VowelsEnv extends MultiTurnEnv {
  protected envResponse(_messages: Messages) {
    return [{ role: "user" as const, content: "more" }];
  }
}

export const loadEnvironment = defineEnvironment({
  args: z
    .object({
      turns: z.number().int().min(1).max(4).default(1),
      rows: z.number().int().positive().default(16),
      /** Every row's reference completion, which supervised fine-tuning trains on (default: its answer). */
      reference: z.string().min(1).optional(),
      solved: z.number().int().nonnegative().default(0),
    })
    .strict(),
  load: ({ turns, rows, solved, reference }) =>
    new VowelsEnv({
      maxTurns: turns,
      ...(reference !== undefined
        ? { referenceCompletion: () => [{ role: "assistant" as const, content: reference }] }
        : {}),
      dataset: Dataset.fromRows(
        Array.from({ length: rows }, (_, i) => ({
          question: `say ${i}`,
          answer: i < solved ? "solved" : "",
        })),
      ),
      evalDataset: Dataset.fromRows(
        Array.from({ length: 8 }, (_, i) => ({ question: `tell ${i}`, answer: "" })),
      ),
      rubric: new Rubric().addReward(
        ({ completion, answer }) => {
          if (answer === "solved") return 1;
          const text = (completion as Messages)
            .filter((m) => m.role === "assistant")
            .map((m) => (typeof m.content === "string" ? m.content : ""))
            .join("");
          return vowelShare(text);
        },
        { name: "vowel_share" },
      ),
    }),
});
