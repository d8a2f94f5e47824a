/**
 * The GSM8K rows this package ships in `data/` (OpenAI's train and test splits, MIT licence), and
 * the worked solution written as a model should write it: the dataset's steps without the
 * calculator annotations `<<48/2=24>>`, ending in `\boxed{n}`. The other GSM8K environments
 * (gsm8k-calculator, python) load their rows from here, so the data ships once.
 */
import { fileURLToPath } from "node:url";
import { type Dataset, DatasetError, extractHashAnswer, loadJsonl } from "@vf-rl/core";

/** The two splits GSM8K is published with. */
export type Gsm8kSplit = "train" | "test";

/** A calculator annotation of the published solutions: `<<expression=result>>`. */
const ANNOTATION = /<<([^>]*)>>/g;

/**
 * Loads one split: `question`, `answer` = the final number (thousands separators dropped), and
 * `info.solution` = the worked solution as published (with its annotations and `####` line).
 *
 * @example
 * const test = await loadGsm8k("test"); // 1,319 rows; train has 7,473
 */
export async function loadGsm8k(split: Gsm8kSplit): Promise<Dataset> {
  const path = fileURLToPath(new URL(`../data/${split}.jsonl`, import.meta.url));
  const rows = await loadJsonl(path);
  return rows.map((example) => {
    const final = extractHashAnswer(example.answer);
    if (final === null) {
      throw new DatasetError(
        `${path}: row ${example.exampleId} has no "#### <answer>" line: restore the file from the package`,
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

/** The solution's steps without calculator annotations and without the final `#### n` line. */
export function solutionSteps(solution: string): string {
  const marker = solution.lastIndexOf("####");
  const steps = marker < 0 ? solution : solution.slice(0, marker);
  return steps.replace(ANNOTATION, "").trim();
}

/**
 * What a perfect answer looks like: the steps, then `The answer is \boxed{n}`.
 *
 * @example
 * referenceSolution("2/2=<<2/2=1>>1 bolt\n#### 1", "1") // "2/2=1 bolt\nThe answer is \\boxed{1}"
 */
export function referenceSolution(solution: string, answer: string): string {
  const steps = solutionSteps(solution);
  return `${steps === "" ? "" : `${steps}\n`}The answer is \\boxed{${answer}}`;
}

/** The expressions of the calculator annotations, in order: `<<48/2=24>>` gives `48/2`. */
export function annotatedExpressions(solution: string): string[] {
  return [...solution.matchAll(ANNOTATION)].map((match) => match[1]!.split("=")[0]!.trim());
}
