/**
 * Turns SQuAD v1.1 files into this package's pages and questions (what scripts/build-data.ts
 * writes to data/). Articles become pages, paragraphs their sections, and every question a row with
 * its distinct reference answers and the section that holds them. Pages are sorted by id and nothing
 * depends on the input's article order, so the official dev-v1.1.json and the two halves of Du et
 * al.'s split build the very same files.
 */
import { z } from "zod";
import { sectionId, type WikiPage, type WikiQuestion } from "./wiki-data.ts";

/** The SQuAD v1.1 file format, as far as the build reads it. */
export const SquadFile = z.object({
  version: z.string(),
  data: z.array(
    z.object({
      title: z.string().min(1),
      paragraphs: z.array(
        z.object({
          context: z.string().min(1),
          qas: z.array(
            z.object({
              id: z.string().min(1),
              question: z.string(),
              answers: z.array(z.object({ text: z.string(), answer_start: z.number().int() })),
            }),
          ),
        }),
      ),
    }),
  ),
});
export type SquadFile = z.infer<typeof SquadFile>;

/**
 * The 24 articles of the evaluation split: the test half of Du, Shao and Cardie (2017, "Learning to
 * Ask"), who split SQuAD's dev set by article. The other 24 articles make the training split.
 */
export const EVAL_ARTICLES: ReadonlySet<string> = new Set([
  "Southern_California",
  "Doctor_Who",
  "Normans",
  "Victoria_and_Albert_Museum",
  "American_Broadcasting_Company",
  "Kenya",
  "Chloroplast",
  "Steam_engine",
  "Rhine",
  "Economic_inequality",
  "Scottish_Parliament",
  "Pharmacy",
  "Nikola_Tesla",
  "Fresno,_California",
  "Sky_(United_Kingdom)",
  "Martin_Luther",
  "Huguenot",
  "Ctenophora",
  "Intergovernmental_Panel_on_Climate_Change",
  "United_Methodist_Church",
  "Computational_complexity_theory",
  "Yuan_dynasty",
  "Private_school",
  "Amazon_rainforest",
]);

/** A page id from a SQuAD title: `Fresno,_California` → `fresno_california`. */
export function pageIdOf(title: string): string {
  return title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

/** A readable title: `Sky_(United_Kingdom)` → `Sky (United Kingdom)`. */
export function displayTitle(title: string): string {
  return title.replaceAll("_", " ");
}

/** What the build produces. */
export interface WikiData {
  pages: WikiPage[];
  questions: WikiQuestion[];
}

/**
 * Pages and questions from one or more SQuAD files (the official dev set, or its two halves).
 * Throws when an article appears twice or two titles map to one page id, so a half given twice is
 * caught. Questions whose answers are all empty are dropped (SQuAD v1.1 has none).
 */
export function squadToWiki(files: readonly SquadFile[]): WikiData {
  const articles = files.flatMap((file) => file.data);
  const byId = new Map<string, (typeof articles)[number]>();
  for (const article of articles) {
    const id = pageIdOf(article.title);
    const earlier = byId.get(id);
    if (earlier !== undefined) {
      throw new Error(
        earlier.title === article.title
          ? `article "${article.title}" appears twice: give each SQuAD file once`
          : `articles "${earlier.title}" and "${article.title}" both make page id "${id}"`,
      );
    }
    byId.set(id, article);
  }
  const pages: WikiPage[] = [];
  const questions: WikiQuestion[] = [];
  for (const id of [...byId.keys()].sort()) {
    const article = byId.get(id)!;
    pages.push({
      id,
      title: displayTitle(article.title),
      sections: article.paragraphs.map((p) => p.context),
    });
    const split = EVAL_ARTICLES.has(article.title) ? "eval" : "train";
    article.paragraphs.forEach((paragraph, index) => {
      for (const qa of paragraph.qas) {
        const answers = [...new Set(qa.answers.map((a) => a.text.trim()).filter((text) => text !== ""))];
        if (answers.length === 0) continue;
        questions.push({
          id: qa.id,
          question: qa.question.trim(),
          answers,
          page_id: id,
          section_id: sectionId(id, index + 1),
          split,
        });
      }
    });
  }
  return { pages, questions };
}
