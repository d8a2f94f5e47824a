/**
 * gsm8k: grade-school math word problems, one turn. The model reasons step by step and puts the
 * final number in `\boxed{}`.
 * Reward: `correct_answer` (MathRubric, weight 1): 1 when the boxed number equals the reference; a
 * reply without a box scores 0 (with `lenient: true`, its last number counts instead).
 * Metrics (weight 0): `boxed_answer`, 1 when the reply holds a complete `\boxed{...}`;
 * `lenient_correct_answer`, 1 when the boxed answer, a `####` line or the last number is right.
 */
import {
  defineEnvironment,
  extractBoxedAnswer,
  lastAssistantText,
  lenientCorrectAnswer,
  MathRubric,
  type RewardContext,
  SingleTurnEnv,
  textAfterThink,
} from "@vf-rl/core";
import { z } from "zod";
import { loadGsm8k, referenceSolution } from "./gsm8k-data.ts";

export {
  annotatedExpressions,
  type Gsm8kSplit,
  loadGsm8k,
  referenceSolution,
  solutionSteps,
} from "./gsm8k-data.ts";

/** The system prompt of every row. */
export const SYSTEM_PROMPT =
  "Solve the math problem. Think step by step, then give the final answer as a number inside \\boxed{}.";

/** 1 when the last reply (after any thinking) holds a complete `\boxed{...}`, else 0. */
export function boxedAnswer({ completion }: RewardContext): number {
  const text = lastAssistantText(completion);
  return extractBoxedAnswer(textAfterThink(text) ?? text, { strict: true }) === null ? 0 : 1;
}

/** The arguments of `loadEnvironment` (`vf eval gsm8k -a '{...}'`). */
export const Gsm8kArgs = z
  .object({
    /** Which GSM8K split the evaluation rows come from. */
    split: z.enum(["test", "train"]).default("test"),
    /** Training rows to keep (after the seeded shuffle); all 7,473 when absent. */
    numTrain: z.number().int().positive().optional(),
    /** Evaluation rows to keep, in the file's order; the whole split when absent. */
    numEval: z.number().int().positive().optional(),
    /** Seed of the training rows' order. */
    seed: z.number().int().default(0),
    /**
     * Reward a right number outside `\boxed{}` too (the last number of the reply). Off by default:
     * a reward that reads any number pays for guesses and number-spraying, a hack RL would learn.
     */
    lenient: z.boolean().default(false),
  })
  .strict();
export type Gsm8kArgs = z.infer<typeof Gsm8kArgs>;

/** Loads the gsm8k environment; see `Gsm8kArgs` for the arguments. */
export const loadEnvironment = defineEnvironment({
  args: Gsm8kArgs,
  load: ({ split, numTrain, numEval, seed, lenient }) =>
    new SingleTurnEnv({
      dataset: async () => (await loadGsm8k("train")).shuffle(seed).take(numTrain),
      evalDataset: async () => (await loadGsm8k(split)).take(numEval),
      systemPrompt: SYSTEM_PROMPT,
      rubric: new MathRubric({ lenient })
        .addMetric(boxedAnswer, { name: "boxed_answer" })
        .addMetric(lenientCorrectAnswer, { name: "lenient_correct_answer" }),
      referenceCompletion: (input) => [
        { role: "assistant", content: referenceSolution(solutionOf(input.info), input.answer) },
      ],
    }),
});

function solutionOf(info: Record<string, unknown>): string {
  return typeof info.solution === "string" ? info.solution : "";
}
