/**
 * SQuAD v1.1's answer scores, as its official evaluation script defines them: both texts are
 * normalised (lower case, ASCII punctuation and the articles a/an/the removed, whitespace
 * collapsed), then exact match is equality and F1 the harmonic mean of token precision and recall.
 * Each score is the best over every reference answer.
 */

const PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
const ARTICLES = /\b(a|an|the)\b/g;

/** The normalised form both scores compare: `"The Denver Broncos!"` → `"denver broncos"`. */
export function normalizeAnswer(text: string): string {
  return text
    .toLowerCase()
    .replace(PUNCTUATION, "")
    .replace(ARTICLES, " ")
    .split(/\s+/)
    .filter(Boolean)
    .join(" ");
}

/** 1 when the normalised prediction equals a normalised reference, else 0. */
export function exactMatch(prediction: string, references: readonly string[]): number {
  const predicted = normalizeAnswer(prediction);
  return references.some((reference) => normalizeAnswer(reference) === predicted) ? 1 : 0;
}

/** The best token F1 of the prediction against any reference, 0 to 1. */
export function tokenF1(prediction: string, references: readonly string[]): number {
  const predicted = tokens(prediction);
  return Math.max(0, ...references.map((reference) => f1(predicted, tokens(reference))));
}

function tokens(text: string): string[] {
  const normal = normalizeAnswer(text);
  return normal === "" ? [] : normal.split(" ");
}

function f1(predicted: string[], reference: string[]): number {
  const counts = new Map<string, number>();
  for (const token of reference) counts.set(token, (counts.get(token) ?? 0) + 1);
  let same = 0;
  for (const token of predicted) {
    const left = counts.get(token) ?? 0;
    if (left > 0) {
      same++;
      counts.set(token, left - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / predicted.length;
  const recall = same / reference.length;
  return (2 * precision * recall) / (precision + recall);
}
