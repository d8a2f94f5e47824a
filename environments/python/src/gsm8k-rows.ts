/**
 * The GSM8K problems of the python environment: the gsm8k environment's rows (its package ships the
 * data once), the first 1,000 training problems and all 1,319 test problems, each with `answer` the
 * final number and `info.solution` the published worked solution.
 */

import { type Gsm8kSplit, loadGsm8k, referenceSolution } from "@vf-env/gsm8k";
import type { Dataset } from "@vf-rl/core";

export type { Gsm8kSplit };

/** Training problems this environment uses: enough for its runs, and a stable prefix of GSM8K's. */
const TRAIN_ROWS = 1000;

/** Loads one split; throws a `DatasetError` for a row without its `#### n` line. */
export async function loadProblems(split: Gsm8kSplit): Promise<Dataset> {
  const rows = await loadGsm8k(split);
  return split === "train" ? rows.take(TRAIN_ROWS) : rows;
}

/**
 * A perfect written answer: the published steps without their calculator annotations, then the
 * number in `\boxed{}`.
 *
 * @example referenceAnswer("2/2=<<2/2=1>>1 bolt\n#### 1", "1") // "2/2=1 bolt\nThe answer is \\boxed{1}."
 */
export function referenceAnswer(solution: string, answer: string): string {
  return `${referenceSolution(solution, answer)}.`;
}
