/**
 * The word lists shipped in `data/` (from SCOWL; see data/README.md): the secrets, and every word
 * the game accepts as a guess.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { DatasetError } from "@vf-rl/core";

/** The two lists, each lower-case five-letter words. */
export interface WordLists {
  /** Secrets, in file order. */
  answers: string[];
  /** Words accepted as guesses (the answers included). */
  allowed: ReadonlySet<string>;
}

/** Reads both lists from the package's data folder. */
export async function loadWordLists(): Promise<WordLists> {
  const answers = await readWords("answers.txt");
  const allowed = new Set([...(await readWords("allowed.txt")), ...answers]);
  return { answers, allowed };
}

async function readWords(file: string): Promise<string[]> {
  const path = fileURLToPath(new URL(`../data/${file}`, import.meta.url));
  const words = (await readFile(path, "utf8")).split("\n").filter((line) => line !== "");
  const bad = words.findIndex((word) => !/^[a-z]{5}$/.test(word));
  if (bad >= 0) {
    throw new DatasetError(
      `${path} line ${bad + 1}: "${words[bad]}" is not a lower-case five-letter word: fix or remove it`,
      path,
      bad + 1,
    );
  }
  return words;
}
