/**
 * gsm8k-calculator: GSM8K word problems with a `calculate(expression)` tool. The model may call the
 * tool any number of times, then answers with the final number in `\boxed{}`.
 * Reward: `correct_answer` (MathRubric, weight 1): 1 when the boxed number equals the reference; a
 * reply without a box scores 0 (with `lenient: true`, its last number counts instead).
 * Metrics (weight 0): `calculate_errors`, tool calls answered with an error;
 * `lenient_correct_answer`, 1 when the boxed answer, a `####` line or the last number is right; the environment adds
 * `total_tool_calls`, `calculate_calls` and `num_turns`.
 */

import { loadGsm8k } from "@vf-env/gsm8k";
import {
  defineEnvironment,
  lenientCorrectAnswer,
  MathRubric,
  type RewardContext,
  ToolEnv,
} from "@vf-rl/core";
import { z } from "zod";
import { calculateTool } from "./calculate-tool.ts";
import { referenceCompletion } from "./reference-completion.ts";

export {
  annotatedExpressions,
  type Gsm8kSplit,
  loadGsm8k,
  referenceSolution,
  solutionSteps,
} from "@vf-env/gsm8k";
export { calculateTool } from "./calculate-tool.ts";
export { CalculationError, calculate, MAX_DEPTH, MAX_EXPRESSION_LENGTH } from "./calculator.ts";
export { referenceCompletion } from "./reference-completion.ts";

/** The system prompt of every row. */
export const SYSTEM_PROMPT =
  "Solve the math problem step by step. Use the calculate tool for arithmetic. " +
  "Give the final answer as a number inside \\boxed{}.";

/** Tool calls answered with an error (bad expression, division by zero, bad arguments). */
export function calculateErrors({ completion }: RewardContext): number {
  return completion.filter(
    (m) => m.role === "tool" && typeof m.content === "string" && m.content.startsWith("Error:"),
  ).length;
}

/** The arguments of `loadEnvironment` (`vf eval gsm8k-calculator -a '{...}'`). */
export const Gsm8kCalculatorArgs = z
  .object({
    /** Which GSM8K split the evaluation rows come from. */
    split: z.enum(["test", "train"]).default("test"),
    /** Training rows to keep (after the seeded shuffle); all 7,473 when absent. */
    numTrain: z.number().int().positive().optional(),
    /** Evaluation rows to keep, in the file's order; the whole split when absent. */
    numEval: z.number().int().positive().optional(),
    /** Seed of the training rows' order. */
    seed: z.number().int().default(0),
    /** Model turns per rollout, tool-calling turns included. */
    maxTurns: z.number().int().positive().default(10),
    /** Reward a right number outside `\boxed{}` too (the last number of the reply); off by default. */
    lenient: z.boolean().default(false),
  })
  .strict();
export type Gsm8kCalculatorArgs = z.infer<typeof Gsm8kCalculatorArgs>;

/** Loads the gsm8k-calculator environment; see `Gsm8kCalculatorArgs` for the arguments. */
export const loadEnvironment = defineEnvironment({
  args: Gsm8kCalculatorArgs,
  load: ({ split, numTrain, numEval, seed, maxTurns, lenient }) =>
    new ToolEnv({
      dataset: async () => (await loadGsm8k("train")).shuffle(seed).take(numTrain),
      evalDataset: async () => (await loadGsm8k(split)).take(numEval),
      tools: [calculateTool],
      maxTurns,
      systemPrompt: SYSTEM_PROMPT,
      rubric: new MathRubric({ lenient })
        .addMetric(calculateErrors, { name: "calculate_errors" })
        .addMetric(lenientCorrectAnswer, { name: "lenient_correct_answer" }),
      referenceCompletion: (input) =>
        referenceCompletion(typeof input.info.solution === "string" ? input.info.solution : "", input.answer),
    }),
});
