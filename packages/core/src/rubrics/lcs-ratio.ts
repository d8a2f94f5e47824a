/**
 * Similarity of two texts as the longest common subsequence ratio, 2·LCS/(|a|+|b|): 1 for equal
 * texts, 0 for texts with no character in common. Lengths count Unicode code points.
 */

/**
 * The LCS ratio of `a` and `b`; 1 when both are empty. Time O(|a|·|b|), memory O(min(|a|, |b|)).
 *
 * @example
 * lcsRatio("kitten", "sitting") // 2·4/13 ≈ 0.615 ("ittn")
 */
export function lcsRatio(a: string, b: string): number {
  let long = Array.from(a);
  let short = Array.from(b);
  if (long.length + short.length === 0) return 1;
  if (short.length > long.length) [long, short] = [short, long];
  // One row of the dynamic programme over the shorter text, updated in place along the longer.
  const row = new Uint32Array(short.length + 1);
  for (const char of long) {
    let diagonal = 0;
    for (let j = 1; j <= short.length; j++) {
      const above = row[j]!;
      row[j] = char === short[j - 1] ? diagonal + 1 : Math.max(above, row[j - 1]!);
      diagonal = above;
    }
  }
  return (2 * row[short.length]!) / (long.length + short.length);
}
