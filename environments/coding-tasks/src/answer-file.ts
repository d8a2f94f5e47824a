/**
 * Checking the file an agent was asked to write (`answer.txt`) against the reference answer.
 */

const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)$/;

/**
 * Whether `written` gives the `expected` answer: the same text once surrounding whitespace is
 * trimmed, or, when both are plain decimal numbers, the same number (`6028.5` is `6028.50`).
 *
 * @example
 * answerMatches("6\n", "6") // true
 * answerMatches("12", "6") // false
 */
export function answerMatches(written: string, expected: string): boolean {
  const got = written.trim();
  const want = expected.trim();
  if (got === want) return true;
  return NUMBER.test(got) && NUMBER.test(want) && Number(got) === Number(want);
}
