/**
 * Prompts for sampling benches: `n` copies of one chat prompt, each with a letter of its stream and
 * one of the round just before the end of the turn, so no two are alike (streams of one prompt would
 * share its prefill, and a round's prompts would repeat the last round's).
 */
export function distinctPrompts(prompt: readonly number[], n: number, round: number): number[][] {
  return Array.from({ length: n }, (_, i) => [
    ...prompt.slice(0, -3),
    97 + (i % 26),
    65 + (round % 26),
    ...prompt.slice(-3),
  ]);
}
