/**
 * The `n` highest scores, highest first. Leaves `scores` as it was.
 * @param {number[]} scores
 * @param {number} [n]
 * @returns {number[]}
 */
export function topScores(scores, n = 3) {
  return [...scores].sort().reverse().slice(0, n);
}
