/**
 * The `calculate` tool of tool-arithmetic: gsm8k-calculator's safe evaluator under a one-line
 * description. The engine writes every tool's definition into the prompt, so a short one keeps the
 * built-in model's prompts short (gsm8k-calculator's longer description lists every operator).
 */
import { calculate } from "@vf-env/gsm8k-calculator";
import { tool } from "@vf-rl/core";
import { z } from "zod";

/** `calculate({ expression })`: the value of an arithmetic expression as a string; a bad one is a tool error. */
export const calculateTool = tool({
  name: "calculate",
  description: "Evaluate an arithmetic expression.",
  parameters: z.object({ expression: z.string() }),
  run: ({ expression }) => calculate(expression),
});
