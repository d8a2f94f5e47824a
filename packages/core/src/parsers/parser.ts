/**
 * A parser pulls the answer out of a completion and scores its format. The base parser applies an
 * extract function to the last assistant message's text.
 */
import { contentText, type Messages } from "../messages/message.ts";

export type ExtractFn = (text: string) => string | null;

/** Options of `Parser`. */
export interface ParserOptions {
  /** Applied to the text of the last assistant message; default: the text itself. */
  extract?: ExtractFn;
}

/** Pulls the answer out of a completion and scores its format; the base parser takes the last assistant text. */
export class Parser {
  protected readonly extract: ExtractFn;

  constructor(options: ParserOptions = {}) {
    this.extract = options.extract ?? ((text) => text);
  }

  /** The parse of one text. */
  parse(text: string): string | null {
    return this.extract(text);
  }

  /**
   * The answer in a completion: the parse of the last assistant message (content parts joined
   * from their text parts), or of the string itself; null when there is none.
   */
  parseAnswer(completion: Messages | string): string | null {
    if (typeof completion === "string") return this.parse(completion);
    for (let i = completion.length - 1; i >= 0; i--) {
      const message = completion[i]!;
      if (message.role === "assistant") return this.parse(contentText(message.content));
    }
    return null;
  }

  /** How well the completion follows the expected format, 0..1. The base parser expects none: 1. */
  formatScore(_completion: Messages): number {
    return 1;
  }
}
