/**
 * `\boxed{...}` answers, as math models are asked to write them. Regular expressions cannot match
 * nested braces, so the last box is walked by hand.
 */

export interface BoxedAnswerOptions {
  /**
   * When true, text without a complete box yields null (scoring wants the format); when false
   * (default), it yields the text unchanged, so the extractor also works as a pass-through.
   */
  strict?: boolean;
}

const BOX_COMMANDS = /\\(?:boxed|fbox)\s*\{/g;

/**
 * The content of the last `\boxed{...}` (or `\fbox{...}`) in `text`, braces balanced.
 *
 * @example
 * extractBoxedAnswer("so \\boxed{\\frac{1}{2}}.") // "\\frac{1}{2}"
 * extractBoxedAnswer("no box") // "no box"
 * extractBoxedAnswer("no box", { strict: true }) // null
 */
export function extractBoxedAnswer(text: string, options: BoxedAnswerOptions = {}): string | null {
  const fallback = options.strict ? null : text;
  let contentStart = -1;
  for (const match of text.matchAll(BOX_COMMANDS)) contentStart = match.index + match[0].length;
  if (contentStart < 0) return fallback;
  let depth = 1;
  for (let i = contentStart; i < text.length; i++) {
    const char = text[i];
    if (char === "{") depth++;
    else if (char === "}" && --depth === 0) return text.slice(contentStart, i);
  }
  // The last box never closes (a truncated completion): there is no answer in it.
  return fallback;
}
