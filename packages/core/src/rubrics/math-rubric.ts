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
  /**
   * Also reward an answer the parser does not find: a `####` line or the last number of the reply
   * (`lenientCorrectAnswer`). Off by default: a reward that reads any number in the text pays for
   * guesses and number-spraying, which RL finds and exploits.
   */
  lenient?: boolean;
}

/**
 * A `Rubric` with the reward `correct_answer`: 1 when the answer the parser finds (by default the
 * last `\boxed{}`) is equivalent to the row's answer, else 0. Add more rewards and metrics to it as
 * to any rubric; `lenientCorrectAnswer` makes a useful metric beside it.
 */
export class MathRubric<Data = Record<string, unknown>> extends Rubric<Data> {
  constructor(options: MathRubricOptions = {}) {
    super({
      parser:
        options.parser ??
        new MaybeThinkParser({ extract: (text) => extractBoxedAnswer(text, { strict: true }) }),
    });
    const reward = options.lenient ? lenientCorrectAnswer : correctAnswer;
    this.addReward(reward, { name: "correct_answer", weight: options.weight ?? 1 });
  }
}

/**
 * 1 when the parsed answer is equivalent to `ctx.answer`, else 0 (no answer in the asked format
 * scores 0). `ctx.answer` may be a whole GSM8K solution: its `####` line is the reference.
 */
export function correctAnswer<Data>(ctx: RewardContext<Data>): number {
  const parsed = ctx.parser.parseAnswer(ctx.completion)?.trim();
  return parsed ? equivalentToReference(parsed, ctx.answer) : 0;
}

/**
 * `correctAnswer`, but when the parser finds no answer, the final answer of the last assistant
 * message's text after any thinking counts instead (`extractFinalAnswer`: a box, `####`, or the
 * last number). For reading a model's ability past its formatting, not as a training reward.
 */
export function lenientCorrectAnswer<Data>(ctx: RewardContext<Data>): number {
  const parsed = ctx.parser.parseAnswer(ctx.completion)?.trim();
  const text = lastAssistantText(ctx.completion);
  const candidate = parsed ? parsed : extractFinalAnswer(textAfterThink(text) ?? text);
  return candidate ? equivalentToReference(candidate, ctx.answer) : 0;
}

function equivalentToReference(candidate: string, answer: string): number {
  const reference = extractHashAnswer(answer) ?? answer;
  return answersEquivalent(candidate, reference) ? 1 : 0;
}
