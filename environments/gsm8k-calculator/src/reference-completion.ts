/**
 * How a perfect model solves a row with the calculator: one turn calling `calculate` on every
 * annotated expression of the published solution, the tool results, then the worked solution
 * ending in `\boxed{n}`.
 */

import { annotatedExpressions, referenceSolution } from "@vf-env/gsm8k";
import type { AssistantMessage, Messages, ToolMessage } from "@vf-rl/core";
import { CalculationError, calculate } from "./calculator.ts";

/**
 * The reference conversation of a row. Annotations the calculator refuses (a handful of the
 * dataset's are not plain arithmetic) are left out; without any, it is the final answer alone.
 */
export function referenceCompletion(solution: string, answer: string): Messages {
  const calls: { expression: string; result: string }[] = [];
  for (const expression of annotatedExpressions(solution)) {
    try {
      calls.push({ expression, result: calculate(expression) });
    } catch (error) {
      if (!(error instanceof CalculationError)) throw error;
    }
  }
  const final: AssistantMessage = { role: "assistant", content: referenceSolution(solution, answer) };
  if (calls.length === 0) return [final];
  const request: AssistantMessage = {
    role: "assistant",
    content: null,
    tool_calls: calls.map(({ expression }, i) => ({
      id: `call_${i}`,
      type: "function",
      function: { name: "calculate", arguments: JSON.stringify({ expression }) },
    })),
  };
  const results: ToolMessage[] = calls.map(({ result }, i) => ({
    role: "tool",
    tool_call_id: `call_${i}`,
    content: result,
  }));
  return [request, ...results, final];
}
