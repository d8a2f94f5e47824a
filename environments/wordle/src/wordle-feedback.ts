/**
 * Wordle's per-letter feedback, as the real game scores it: greens first, then yellows from left to
 * right, each limited by how many copies of that letter the secret has left once greens are taken.
 * So with the secret `sleep`, the guess `eerie` gets `YYXXX`: the two `e`s of the guess find the two
 * spare `e`s of the secret, and a third would be gray.
 */

/** One letter's mark: G (green, right place), Y (yellow, elsewhere in the word) or X (gray, absent). */
export type LetterMark = "G" | "Y" | "X";

/**
 * The feedback pattern of `guess` against `secret`, one mark per letter, e.g. "GYXXG". Both words
 * must have the same length; case is ignored.
 *
 * @example wordleFeedback("story", "sorry") // "GYXGG"
 */
export function wordleFeedback(secret: string, guess: string): string {
  const word = secret.toLowerCase();
  const tried = guess.toLowerCase();
  if (word.length !== tried.length) {
    throw new RangeError(
      `the guess "${guess}" has ${tried.length} letters and the secret ${word.length}: compare words of one length`,
    );
  }
  const marks: LetterMark[] = Array.from({ length: tried.length }, () => "X");
  // Letters of the secret not matched by a green, counted: yellows draw on these.
  const spare = new Map<string, number>();
  for (let i = 0; i < word.length; i++) {
    if (tried[i] === word[i]) marks[i] = "G";
    else spare.set(word[i]!, (spare.get(word[i]!) ?? 0) + 1);
  }
  for (let i = 0; i < tried.length; i++) {
    if (marks[i] === "G") continue;
    const left = spare.get(tried[i]!) ?? 0;
    if (left > 0) {
      marks[i] = "Y";
      spare.set(tried[i]!, left - 1);
    }
  }
  return marks.join("");
}

/**
 * The two feedback lines the game shows, in TextArena's layout: the guess in spaced capitals over
 * its spaced pattern.
 *
 * @example feedbackLines("arise", "XYXYX") // "A R I S E\nX Y X Y X"
 */
export function feedbackLines(guess: string, pattern: string): string {
  return `${spaced(guess.toUpperCase())}\n${spaced(pattern)}`;
}

function spaced(text: string): string {
  return [...text].join(" ");
}
