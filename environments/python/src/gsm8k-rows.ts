/**
 * The GSM8K problems shipped in `data/` (MIT licence, see data/README.md), as rows whose `answer`
 * is the final number and whose `info.solution` is the published worked solution.
 */
import { fileURLToPath } from "node:url";
import { type Dataset, DatasetError, extractHashAnswer, loadJsonl } from "@vf-rl/core";

/** The shipped splits: 1,000 training problems and the 1,319 test problems. */
export type Gsm8kSplit = "train" | "test";

/** Loads one split; throws a `DatasetError` for a row without its `#### n` line. */
export async function loadProblems(split: Gsm8kSplit): Promise<Dataset> {
  const path = fileURLToPath(new URL(`../data/${split}.jsonl`, import.meta.url));
  return (await loadJsonl(path)).map((example) => {
    const final = extractHashAnswer(example.answer);
    if (final === null) {
      throw new DatasetError(
        `${path}: row ${example.exampleId} has no "#### n" line: restore the file`,
        path,
      );
    }
    return {
      ...example,
      answer: final.replace(/,/g, ""),
      info: { ...example.info, solution: example.answer },
    };
  });
}

/**
 * A perfect written answer: the published steps without their calculator annotations, then the
 * number in `\boxed{}`.
 *
 * @example referenceAnswer("2/2=<<2/2=1>>1 bolt\n#### 1", "1") // "2/2=1 bolt\nThe answer is \\boxed{1}."
 */
export function referenceAnswer(solution: string, answer: string): string {
  const marker = solution.lastIndexOf("####");
  const steps = (marker < 0 ? solution : solution.slice(0, marker)).replace(/<<[^>]*>>/g, "").trim();
  return `${steps === "" ? "" : `${steps}\n`}The answer is \\boxed{${answer}}.`;
}
