/**
 * The problems of tool-arithmetic: products of a three-digit and a two-digit number, alone or with
 * a three-digit number added or taken away (`417 * 38 + 256`), asked in one of a few phrasings.
 * Too much to work out in the head for a small model; one call of a calculator for anyone who uses it.
 *
 * Each row's numbers are read from the SHA-256 of its seed, split and index, so a row is the same on
 * every run and platform and never changes when rows are added or removed. The training rows leave
 * out every expression that is also an evaluation row, so the two splits share no problem.
 */
import { createHash } from "node:crypto";

/** One problem: what the user asks, the expression a calculator needs, and the value. */
export interface ArithmeticProblem {
  /** The user's message, e.g. `What is 417 * 38 + 256?`. */
  question: string;
  /** The expression inside the question, as it would be typed into a calculator. */
  expression: string;
  /** The value, as a whole number in decimal. */
  answer: string;
}

/** Which rows: the training rows are drawn from their own stream, then stripped of evaluation problems. */
export type ProblemSplit = "train" | "eval";

const PHRASINGS = [
  (e: string) => `What is ${e}?`,
  (e: string) => `Calculate ${e}.`,
  (e: string) => `Compute ${e}.`,
] as const;

/** Whole numbers from `lo` to `hi` read from a row's hash (its bias, under 1e-6, does not matter here). */
function rowNumbers(seed: number, split: ProblemSplit, index: number): (lo: number, hi: number) => number {
  const digest = createHash("sha256").update(`tool-arithmetic/${seed}/${split}/${index}`).digest();
  let offset = 0;
  return (lo, hi) => {
    const value = digest.readUInt32BE(offset);
    offset += 4;
    return lo + (value % (hi - lo + 1));
  };
}

/** The problem of one row of a split. */
export function drawProblem(seed: number, split: ProblemSplit, index: number): ArithmeticProblem {
  const int = rowNumbers(seed, split, index);
  const a = int(100, 999);
  const b = int(11, 99);
  const c = int(100, 999);
  const kind = int(0, 2);
  const phrasing = PHRASINGS[int(0, PHRASINGS.length - 1)]!;
  const expression = kind === 0 ? `${a} * ${b}` : kind === 1 ? `${a} * ${b} + ${c}` : `${a} * ${b} - ${c}`;
  const value = kind === 0 ? a * b : kind === 1 ? a * b + c : a * b - c;
  return { question: phrasing(expression), expression, answer: String(value) };
}

/** Options of `drawProblems`. */
export interface DrawProblemsOptions {
  seed: number;
  numTrain: number;
  numEval: number;
}

/** The evaluation rows, then as many training rows as asked, none of them an evaluation problem. */
export function drawProblems({ seed, numTrain, numEval }: DrawProblemsOptions): {
  train: ArithmeticProblem[];
  eval: ArithmeticProblem[];
} {
  const evalRows = Array.from({ length: numEval }, (_, i) => drawProblem(seed, "eval", i));
  const held = new Set(evalRows.map((p) => p.expression));
  const train: ArithmeticProblem[] = [];
  for (let i = 0; train.length < numTrain; i++) {
    const problem = drawProblem(seed, "train", i);
    if (!held.has(problem.expression)) train.push(problem);
  }
  return { train, eval: evalRows };
}
