/**
 * The questions as dataset rows: the question as the user message, the first reference answer as
 * `answer`, and in `info` every reference answer, the answer's page and section, and SQuAD's id.
 * Both splits come in a seeded order, so the first rows of either cover many pages.
 */
import { Dataset } from "@vf-rl/core";
import { loadQuestions, type WikiQuestion, type WikiSplit } from "./wiki-data.ts";

/** What `info` holds for each row. */
export interface WikiInfo {
  answers: string[];
  page_id: string;
  section_id: string;
  squad_id: string;
}

let questions: WikiQuestion[] | undefined;

/** The rows of one split (4,961 train, 5,609 eval), shuffled by `seed`, the first `take` of them (all when absent). */
export function loadWikiRows(split: WikiSplit, seed: number, take?: number): Dataset {
  questions ??= loadQuestions();
  const rows = questions
    .filter((q) => q.split === split)
    .map((q) => ({
      question: q.question,
      answer: q.answers[0]!,
      info: {
        answers: q.answers,
        page_id: q.page_id,
        section_id: q.section_id,
        squad_id: q.id,
      } satisfies WikiInfo,
    }));
  return Dataset.fromRows(rows, { source: `wiki-search ${split} questions` })
    .shuffle(seed)
    .take(take);
}

/** The `info` of a row, checked (a row from elsewhere, e.g. an EnvGroup's, may lack it). */
export function wikiInfo(info: Record<string, unknown>): WikiInfo | undefined {
  const { answers, page_id, section_id, squad_id } = info;
  if (!Array.isArray(answers) || typeof page_id !== "string" || typeof section_id !== "string")
    return undefined;
  return {
    answers: answers.filter((a): a is string => typeof a === "string"),
    page_id,
    section_id,
    squad_id: String(squad_id ?? ""),
  };
}
