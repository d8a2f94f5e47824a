/**
 * The lenient think parser: works whether or not the model (or its server) kept the
 * `<think>...</think>` block, so it suits reasoning and non-reasoning models alike.
 */
import { Parser } from "./parser.ts";
import { textAfterThink } from "./think-parser.ts";

/**
 * Parses the text after the last `</think>` when there is one, otherwise the whole text (trimmed),
 * then applies `extract`. Its format score is the base parser's: 1.
 *
 * @example
 * const parser = new MaybeThinkParser({ extract: extractBoxedAnswer });
 * parser.parse("<think>...</think> so \\boxed{4}") // "4"
 * parser.parse("so \\boxed{4}") // "4"
 */
export class MaybeThinkParser extends Parser {
  override parse(text: string): string | null {
    return this.extract(textAfterThink(text) ?? text.trim());
  }
}
