/**
 * reverse-text: reverse a short passage character by character, one turn, the answer inside
 * `<reversed_text>` tags. Passages are cut from the GSM8K questions the package ships.
 * Reward: `lcs_reward` (weight 1), the LCS ratio of the answer and the true reversal.
 * Metric: `format` (weight 0), how well the reply keeps the tag format.
 */
import {
  Dataset,
  defineEnvironment,
  EnvArgsError,
  lcsRatio,
  type RewardContext,
  Rubric,
  SingleTurnEnv,
  XMLParser,
} from "@vf-rl/core";
import { z } from "zod";
import { loadPassages } from "./passages.ts";

export { cutPassages, type LengthRange, loadPassages } from "./passages.ts";

/** Reads the answer from `<reversed_text>...</reversed_text>` (the last one of the last reply that has one). */
export const parser = new XMLParser(["reversed_text"], { answerField: "reversed_text" });

/** The system prompt of every row; the user message is the passage alone. */
export const SYSTEM_PROMPT = `Reverse the text character by character. Put your answer inside <reversed_text> tags:\n${parser.formatString()}`;

/** `text` backwards, one Unicode character at a time. */
export function reverseText(text: string): string {
  return Array.from(text).reverse().join("");
}

/** The LCS ratio of the parsed answer and the true reversal (`ctx.answer`); 0 when no answer parses. */
export function lcsReward({ completion, answer }: RewardContext): number {
  const reversed = parser.parseAnswer(completion);
  return reversed === null ? 0 : lcsRatio(reversed, answer);
}

/** The arguments of `loadEnvironment` (`vf eval reverse-text -a '{...}'`). */
export const ReverseTextArgs = z
  .object({
    /** Shortest passage, in characters. */
    minLength: z.number().int().positive().default(10),
    /** Longest passage, in characters. */
    maxLength: z.number().int().positive().default(40),
    /** Training passages, at most (fewer when the length range leaves fewer). */
    numTrain: z.number().int().nonnegative().default(1000),
    /** Evaluation passages, drawn before the training ones so the two never share a passage. */
    numEval: z.number().int().positive().default(100),
    /** Seed of the draw. */
    seed: z.number().int().default(0),
  })
  .strict()
  .refine((args) => args.minLength <= args.maxLength, {
    message: "minLength must not exceed maxLength",
    path: ["minLength"],
  });
export type ReverseTextArgs = z.infer<typeof ReverseTextArgs>;

/** Loads the reverse-text environment; see `ReverseTextArgs` for the arguments. */
export const loadEnvironment = defineEnvironment({
  args: ReverseTextArgs,
  load: async ({ minLength, maxLength, numTrain, numEval, seed }) => {
    const passages = Dataset.fromRows(
      (await loadPassages({ minLength, maxLength })).map((text) => ({
        question: text,
        answer: reverseText(text),
      })),
      { source: "reverse-text passages" },
    ).shuffle(seed);
    if (passages.length < numEval) {
      throw new EnvArgsError("", [
        `numEval: ${numEval} passages asked, but only ${passages.length} are ${minLength}-${maxLength} characters long; lower numEval or widen the range`,
      ]);
    }
    return new SingleTurnEnv({
      dataset: passages.filter((_, index) => index >= numEval).take(numTrain),
      evalDataset: passages.take(numEval),
      systemPrompt: SYSTEM_PROMPT,
      parser,
      rubric: new Rubric({ parser })
        .addReward(lcsReward, { name: "lcs_reward" })
        .addMetric(({ completion }) => parser.formatScore(completion), { name: "format" }),
      referenceCompletion: (input) => [
        { role: "assistant", content: parser.format({ reversed_text: input.answer }) },
      ],
    });
  },
});
