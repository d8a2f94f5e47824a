/**
 * The tasks of coding-tasks, in the order a split yields them: each is a small repository under
 * `tasks/<id>/` (laid out as task-folder.ts reads it), in one split and one language, and checked
 * either by hidden tests run against what the agent left or by the file the agent was asked to write.
 */
import { z } from "zod";

/** The languages the repositories are written in (JavaScript runs on Node 20 without a build step). */
export const Language = z.enum(["javascript", "python"]);
export type Language = z.infer<typeof Language>;

/** A split of the taskset. */
export type Split = "train" | "eval";

/** How a task's result is checked. */
export type TaskCheck =
  /** The task's hidden tests (`tasks/<id>/hidden/`) run in the runtime the agent left. */
  | { type: "hidden-tests" }
  /** The file the agent was asked to write, compared with the reference answer. */
  | { type: "answer-file"; path: string };

/** One task: where it lives, which split and language it belongs to, and how it is checked. */
export interface CatalogEntry {
  /** Its folder under `tasks/`, and the task's id. */
  id: string;
  split: Split;
  language: Language;
  check: TaskCheck;
  /** What kind of bug it is (or of question), for the README and the tasks' info. */
  kind: string;
}

const TESTS = { type: "hidden-tests" } as const;
const ANSWER = { type: "answer-file", path: "answer.txt" } as const;

/** Every task, the languages interleaved so that the first few of a split hold both. */
export const CATALOG: readonly CatalogEntry[] = [
  { id: "js-paginate", split: "train", language: "javascript", check: TESTS, kind: "off-by-one" },
  { id: "py-chunked", split: "train", language: "python", check: TESTS, kind: "off-by-one" },
  { id: "js-retry-status", split: "train", language: "javascript", check: TESTS, kind: "wrong condition" },
  { id: "py-leap-year", split: "train", language: "python", check: TESTS, kind: "wrong condition" },
  { id: "js-truncate", split: "train", language: "javascript", check: TESTS, kind: "wrong default" },
  { id: "py-note-tags", split: "train", language: "python", check: TESTS, kind: "wrong default" },
  { id: "js-top-scores", split: "train", language: "javascript", check: TESTS, kind: "API misuse" },
  { id: "answer-py-inventory", split: "train", language: "python", check: ANSWER, kind: "data question" },
  { id: "js-slugify", split: "eval", language: "javascript", check: TESTS, kind: "missing edge case" },
  { id: "py-median", split: "eval", language: "python", check: TESTS, kind: "missing edge case" },
  { id: "js-load-all", split: "eval", language: "javascript", check: TESTS, kind: "API misuse" },
  { id: "py-extension", split: "eval", language: "python", check: TESTS, kind: "API misuse" },
  { id: "answer-js-logs", split: "eval", language: "javascript", check: ANSWER, kind: "data question" },
];

/** The catalog's tasks of `split` in `languages`, in catalog order. */
export function catalogTasks(split: Split, languages: readonly Language[]): CatalogEntry[] {
  return CATALOG.filter((entry) => entry.split === split && languages.includes(entry.language));
}
