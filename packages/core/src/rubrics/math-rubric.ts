/**
 * A rubric for math problems with one numeric or symbolic final answer (GSM8K, MATH, AIME).
 * Equivalence is `answersEquivalent`: exact numbers and normalised text, not a computer-algebra
 * system.
 *
 * @example
 * const rubric = new MathRubric();
 * const env = new SingleTurnEnv({ dataset, rubric, systemPrompt: "Put your final answer in \\boxed{}." });
 */
import { lastAssistantText } from "../messages/message.ts";
import { extractBoxedAnswer } from "../parsers/boxed-answer.ts";
import { extractHashAnswer } from "../parsers/hash-answer.ts";
import { MaybeThinkParser } from "../parsers/maybe-think-parser.ts";
import type { Parser } from "../parsers/parser.ts";
import { textAfterThink } from "../parsers/think-parser.ts";
import { answersEquivalent, extractFinalAnswer } from "./math-answer.ts";
import type { RewardContext } from "./reward-context.ts";
import { Rubric } from "./rubric.ts";

/** Options of `MathRubric`. */
export interface MathRubricOptions {
  /** Default: a `MaybeThinkParser` that takes the last `\boxed{}` after any thinking (strictly). */
  parser?: Parser;
  /** Weight of `correct_answer` in the reward. Default 1. */
  weight?: number;
}

/**
 * A `Rubric` with the reward `correct_answer`: 1 when the model's final answer is equivalent to the
 * row's answer, else 0. Add more rewards and metrics to it as to any rubric.
 */
export class MathRubric<Data = Record<string, unknown>> extends Rubric<Data> {
  constructor(options: MathRubricOptions = {}) {
    super({
      parser:
        options.parser ??
        new MaybeThinkParser({ extract: (text) => extractBoxedAnswer(text, { strict: true }) }),
    });
    this.addReward(correctAnswer, { name: "correct_answer", weight: options.weight ?? 1 });
  }
}

/**
 * 1 when the parsed answer is equivalent to `ctx.answer`, else 0. When the parser finds no answer
 * (no box), the final answer of the last assistant message's text after any thinking is used
 * instead (`extractFinalAnswer`: a box, `####`, or the last number). `ctx.answer` may be a whole
 * GSM8K solution: its `####` line is the reference.
 */
export function correctAnswer<Data>(ctx: RewardContext<Data>): number {
  const reference = extractHashAnswer(ctx.answer) ?? ctx.answer;
  const parsed = ctx.parser.parseAnswer(ctx.completion)?.trim();
  const text = lastAssistantText(ctx.completion);
  const candidate = parsed ? parsed : extractFinalAnswer(textAfterThink(text) ?? text);
  return candidate !== null && answersEquivalent(candidate, reference) ? 1 : 0;
}
