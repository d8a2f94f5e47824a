/** The `calculate` tool the model calls: the safe evaluator of calculator.ts behind a zod schema. */
import { tool } from "@vf-rl/core";
import { z } from "zod";
import { calculate, MAX_EXPRESSION_LENGTH } from "./calculator.ts";

/**
 * `calculate({ expression })`: the value of an arithmetic expression as a string. A bad expression
 * throws a `CalculationError`, which the environment sends back to the model as `Error: ...`.
 */
export const calculateTool = tool({
  name: "calculate",
  description:
    "Evaluate an arithmetic expression and return its value. Numbers may have decimals or an exponent " +
    "(1.5e3); operators: + - * / // (floor division) % (remainder) and ** or ^ (power), with parentheses and signs.",
  parameters: z.object({
    expression: z
      .string()
      .describe(`the expression, at most ${MAX_EXPRESSION_LENGTH} characters, e.g. (80000 + 50000) * 1.5`),
  }),
  run: ({ expression }) => calculate(expression),
});
