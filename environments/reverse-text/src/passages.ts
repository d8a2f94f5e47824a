/**
 * The passages to reverse: sentences, runs of sentences, clauses and word runs cut from the GSM8K
 * questions this package ships (`data/gsm8k-questions.jsonl`), each within a length range.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { DatasetError } from "@vf-rl/core";

/** Inclusive bounds on a passage's length, in characters. */
export interface LengthRange {
  minLength: number;
  maxLength: number;
}

const CORPUS = fileURLToPath(new URL("../data/gsm8k-questions.jsonl", import.meta.url));

/** Typographic quotes and dashes become their ASCII forms; runs of whitespace one space. */
function normalize(text: string): string {
  return text.replace(/[‘’]/g, "'").replace(/[“”]/g, '"').replace(/[–—]/g, "-").replace(/\s+/g, " ").trim();
}

// Printable ASCII only: every passage is one byte per character, so lengths mean the same to any
// tokenizer and reversal never splits a character.
const PRINTABLE = /^[\x20-\x7e]+$/;

/**
 * Every passage of `text` whose length lies in the range, in order of appearance, without repeats:
 * runs of whole sentences, then for each sentence its clauses (split at `,;:`), and a clause too
 * long for the range is cut into runs of whole words that fit.
 *
 * @example
 * cutPassages("Tom has 3 apples. He eats one, then buys 2 more.", { minLength: 10, maxLength: 20 })
 * // ["Tom has 3 apples.", "He eats one", "then buys 2 more."]
 */
export function cutPassages(text: string, range: LengthRange): string[] {
  const fits = (s: string) => s.length >= range.minLength && s.length <= range.maxLength;
  const found = new Set<string>();
  const sentences = normalize(text).split(/(?<=[.!?])\s+/);
  for (let start = 0; start < sentences.length; start++) {
    let run = "";
    for (let end = start; end < sentences.length; end++) {
      run = run === "" ? sentences[end]! : `${run} ${sentences[end]}`;
      if (run.length > range.maxLength) break;
      if (fits(run)) found.add(run);
    }
  }
  for (const sentence of sentences) {
    for (const clause of sentence.split(/(?<=[,;:])\s+/).map((c) => c.replace(/[,;:]$/, ""))) {
      if (fits(clause)) found.add(clause);
      else if (clause.length > range.maxLength) {
        for (const words of wordRuns(clause, range.maxLength)) if (fits(words)) found.add(words);
      }
    }
  }
  return [...found].filter((passage) => PRINTABLE.test(passage));
}

/** Consecutive words packed greedily into runs of at most `maxLength` characters. */
function wordRuns(clause: string, maxLength: number): string[] {
  const runs: string[] = [];
  let run = "";
  for (const word of clause.split(" ")) {
    if (run !== "" && run.length + 1 + word.length > maxLength) {
      runs.push(run);
      run = word;
    } else {
      run = run === "" ? word : `${run} ${word}`;
    }
  }
  if (run !== "") runs.push(run);
  return runs;
}

/** The passages of the whole shipped corpus in the range, without repeats, in corpus order. */
export async function loadPassages(range: LengthRange): Promise<string[]> {
  const lines = (await readFile(CORPUS, "utf8")).split("\n").filter((line) => line.trim() !== "");
  const passages = new Set<string>();
  lines.forEach((line, index) => {
    const row = JSON.parse(line) as { question?: unknown };
    if (typeof row.question !== "string") {
      throw new DatasetError(
        `${CORPUS} line ${index + 1} has no "question" text: restore the file from the package`,
        CORPUS,
        index + 1,
      );
    }
    for (const passage of cutPassages(row.question, range)) passages.add(passage);
  });
  return [...passages];
}
