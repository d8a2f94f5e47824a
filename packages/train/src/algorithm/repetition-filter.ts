/**
 * The repetition detector (prime-rl's, after arXiv 2506.13585 §3.2): a policy caught in a loop
 * writes token after token it is all but certain of. `window` sampled tokens in a row, each with a
 * probability above `probThreshold`, flag the rollout. Pure: it reads the sampled logprobs only.
 */

/** When a run of sampled tokens is a loop. */
export interface RepetitionRule {
  /** Near-certain tokens in a row that flag a rollout. */
  window: number;
  /** A token sampled with a probability above this is near-certain. */
  probThreshold: number;
}

/** Whether logprobs_T (a rollout's sampled tokens, in order) holds `window` near-certain tokens in a row. */
export function isRepetitive(logprobs_T: readonly number[], rule: RepetitionRule): boolean {
  const threshold = Math.log(rule.probThreshold);
  let run = 0;
  for (const logprob of logprobs_T) {
    run = logprob > threshold ? run + 1 : 0;
    if (run >= rule.window) return true;
  }
  return false;
}
