/**
 * tool-arithmetic: multi-digit arithmetic (`What is 417 * 38 + 256?`) with a `calculate` tool. A
 * model that calls the tool with the question's expression and boxes the result is right every time;
 * one that answers from its head is almost never right. Made for the built-in model, so that RL has
 * a skill to teach in minutes: the base model uses the tool only now and then.
 * Reward: `correct_answer` (MathRubric, weight 1): 1 when the last `\boxed{}` holds the value.
 * Metrics (weight 0): `calculate_calls`, `total_tool_calls` and `num_turns` (from ToolEnv).
 */
import { Dataset, defineEnvironment, MathRubric, ToolEnv } from "@vf-rl/core";
import { z } from "zod";
import { calculateTool } from "./calculate-tool.ts";
import { type ArithmeticProblem, drawProblems } from "./problems.ts";

export { calculateTool } from "./calculate-tool.ts";
export {
  type ArithmeticProblem,
  type DrawProblemsOptions,
  drawProblem,
  drawProblems,
  type ProblemSplit,
} from "./problems.ts";

/** The system prompt of every row (the engine adds the tool's definition after it). */
export const SYSTEM_PROMPT =
  "Answer the arithmetic question. Give the final answer as a number inside \\boxed{}.";

/** The final reply with `answer`, as the references write it: `The answer is \boxed{16102}`. */
export function answerText(answer: string): string {
  return `The answer is \\boxed{${answer}}`;
}

/** The arguments of `loadEnvironment` (`vf eval tool-arithmetic -a '{...}'`). */
export const ToolArithmeticArgs = z
  .object({
    /** Training problems. */
    numTrain: z.number().int().nonnegative().default(5000),
    /** Evaluation problems, none of them among the training ones. */
    numEval: z.number().int().positive().default(500),
    /** Seed of every row's numbers. */
    seed: z.number().int().default(0),
    /** Model turns per rollout, the tool-calling ones included. */
    maxTurns: z.number().int().positive().default(3),
  })
  .strict();
export type ToolArithmeticArgs = z.infer<typeof ToolArithmeticArgs>;

function rows(problems: ArithmeticProblem[], source: string): Dataset {
  return Dataset.fromRows(
    problems.map((p) => ({ question: p.question, answer: p.answer, info: { expression: p.expression } })),
    { source },
  );
}

/** Loads the tool-arithmetic environment; see `ToolArithmeticArgs` for the arguments. */
export const loadEnvironment = defineEnvironment({
  args: ToolArithmeticArgs,
  load: ({ numTrain, numEval, seed, maxTurns }) => {
    const problems = drawProblems({ seed, numTrain, numEval });
    return new ToolEnv({
      dataset: rows(problems.train, "tool-arithmetic training problems"),
      evalDataset: rows(problems.eval, "tool-arithmetic evaluation problems"),
      tools: [calculateTool],
      maxTurns,
      systemPrompt: SYSTEM_PROMPT,
      rubric: new MathRubric(),
      // One call with the question's expression, then the boxed result.
      referenceCompletion: (input) => [
        {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: "call_0",
              type: "function",
              function: {
                name: "calculate",
                arguments: JSON.stringify({ expression: input.info.expression }),
              },
            },
          ],
        },
        { role: "tool", tool_call_id: "call_0", content: input.answer },
        { role: "assistant", content: answerText(input.answer) },
      ],
    });
  },
});
