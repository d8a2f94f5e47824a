// A second toy environment for the train package's tests, beside `vowels`, for runs of several
// environments (mixing by ratio, eval sources): the reward is the share of consonants among the
// characters the model writes, so the two pull a policy opposite ways.
import { Dataset, defineEnvironment, type Messages, Rubric, SingleTurnEnv } from "@vf-rl/core";
import { z } from "zod";

/** Share of a text's characters that are consonants (0 for an empty text). */
export function consonantShare(text: string): number {
  if (text.length === 0) return 0;
  let consonants = 0;
  for (const c of text) if (/[a-z]/i.test(c) && !"aeiouAEIOU".includes(c)) consonants += 1;
  return consonants / text.length;
}

export const loadEnvironment = defineEnvironment({
  args: z.object({ rows: z.number().int().positive().default(16) }).strict(),
  load: ({ rows }) =>
    new SingleTurnEnv({
      dataset: Dataset.fromRows(
        Array.from({ length: rows }, (_, i) => ({ question: `write ${i}`, answer: "" })),
      ),
      evalDataset: Dataset.fromRows(
        Array.from({ length: 8 }, (_, i) => ({ question: `spell ${i}`, answer: "" })),
      ),
      rubric: new Rubric().addReward(
        ({ completion }) => {
          const text = (completion as Messages)
            .filter((m) => m.role === "assistant")
            .map((m) => (typeof m.content === "string" ? m.content : ""))
            .join("");
          return consonantShare(text);
        },
        { name: "consonant_share" },
      ),
    }),
});
