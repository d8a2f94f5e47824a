/**
 * The gibberish detector (prime-rl's, after arXiv 2510.02387 §5.2): a policy that has started to
 * break down samples tokens it should never write (rare ids) at odds worse than a uniform guess.
 * One such token flags the rollout. Pure: it reads the rollout's sampled tokens and logprobs only.
 */

/** When a sampled token is gibberish. */
export interface GibberishRule {
  /** Ids above this are candidates (rare tokens). */
  tokenIdThreshold: number;
  /** Candidates sampled with a logprob below this are gibberish. */
  logprobThreshold: number;
}

/** −log(vocabSize) − offset: the uniform logprob of the vocabulary, lowered by `offset`. */
export function gibberishLogprobThreshold(vocabSize: number, offset: number): number {
  return -Math.log(vocabSize) - offset;
}

/** Whether any sampled token (ids_T with its logprob in logprobs_T) is gibberish under `rule`. */
export function isGibberish(
  ids_T: readonly number[],
  logprobs_T: readonly number[],
  rule: GibberishRule,
): boolean {
  for (let t = 0; t < ids_T.length; t++) {
    if (ids_T[t]! > rule.tokenIdThreshold && logprobs_T[t]! < rule.logprobThreshold) return true;
  }
  return false;
}
