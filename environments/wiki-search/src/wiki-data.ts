/**
 * The corpus and questions this package ships in `data/` (built from SQuAD v1.1's dev set by
 * scripts/build-data.ts): 48 Wikipedia articles as pages, their paragraphs as sections, and 10,570
 * questions, each with its reference answers and the section that holds them.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { DatasetError } from "@vf-rl/core";
import { issueLines } from "@vf-rl/core/config";
import { z } from "zod";

/** One Wikipedia article: `id` is a slug of its title (`fresno_california`); sections are its paragraphs. */
export const WikiPage = z
  .object({
    id: z.string().regex(/^[a-z0-9_]+$/),
    title: z.string().min(1),
    sections: z.array(z.string().min(1)).min(1),
  })
  .strict();
export type WikiPage = z.infer<typeof WikiPage>;

/** Which half of the articles a question belongs to (Du et al., 2017's split of SQuAD's dev set). */
export const WikiSplit = z.enum(["train", "eval"]);
export type WikiSplit = z.infer<typeof WikiSplit>;

/** One question: its SQuAD id, every reference answer, and where the answer is (`<page_id>#<n>`, from 1). */
export const WikiQuestion = z
  .object({
    id: z.string().min(1),
    question: z.string().min(1),
    answers: z.array(z.string().min(1)).min(1),
    page_id: z.string(),
    section_id: z.string().regex(/^[a-z0-9_]+#[1-9][0-9]*$/),
    split: WikiSplit,
  })
  .strict();
export type WikiQuestion = z.infer<typeof WikiQuestion>;

/** The id of a page's n-th section (n from 1). */
export function sectionId(pageId: string, n: number): string {
  return `${pageId}#${n}`;
}

const DATA_DIR = fileURLToPath(new URL("../data/", import.meta.url));

/** Where the shipped files are: `pages.jsonl.gz` and `questions.jsonl.gz`. */
export const DATA_FILES = {
  pages: `${DATA_DIR}pages.jsonl.gz`,
  questions: `${DATA_DIR}questions.jsonl.gz`,
} as const;

/** Reads a gzipped JSONL file and checks each line against `schema`; a bad line names the file and line. */
export function readJsonlGz<T>(path: string, schema: z.ZodType<T>): T[] {
  const text = gunzipSync(readFileSync(path)).toString("utf8");
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  return lines.map((line, i) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new DatasetError(
        `${path} line ${i + 1} is not JSON: restore the file from the package`,
        path,
        i + 1,
      );
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      throw new DatasetError(
        `${path} line ${i + 1}: ${issueLines(parsed.error, "(row)")[0]}: restore the file from the package`,
        path,
        i + 1,
      );
    }
    return parsed.data;
  });
}

/** The shipped pages, in page-id order. */
export function loadPages(path: string = DATA_FILES.pages): WikiPage[] {
  return readJsonlGz(path, WikiPage);
}

/** The shipped questions, in page, section and SQuAD order. */
export function loadQuestions(path: string = DATA_FILES.questions): WikiQuestion[] {
  return readJsonlGz(path, WikiQuestion);
}
