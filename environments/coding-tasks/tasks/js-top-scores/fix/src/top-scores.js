/**
 * The `n` highest scores, highest first. Leaves `scores` as it was.
 * @param {number[]} scores
 * @param {number} [n]
 * @returns {number[]}
 */
export function topScores(scores, n = 3) {
  return [...scores].sort((a, b) => b - a).slice(0, n);
}
