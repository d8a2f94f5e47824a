/** GSM8K-style answers: the solution ends with a line `#### <final answer>`. */

/**
 * The text after the last `####` marker, up to the end of its line, trimmed; null when there is
 * no marker or nothing follows it.
 *
 * @example
 * extractHashAnswer("She makes 9 * 2 = $18.\n#### 18") // "18"
 */
export function extractHashAnswer(text: string): string | null {
  const marker = text.lastIndexOf("####");
  if (marker < 0) return null;
  const rest = text.slice(marker + 4).trim();
  const firstLine = rest.split(/\r?\n/, 1)[0]!.trim();
  return firstLine === "" ? null : firstLine;
}
