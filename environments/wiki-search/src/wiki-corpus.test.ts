import { beforeAll, describe, expect, it } from "vitest";
import { WikiCorpus, WikiLookupError } from "./wiki-corpus.ts";
import { loadPages, loadQuestions, type WikiQuestion } from "./wiki-data.ts";

let corpus: WikiCorpus;
let questions: WikiQuestion[];
beforeAll(() => {
  corpus = new WikiCorpus(loadPages());
  questions = loadQuestions();
});

function lookupError(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(WikiLookupError);
    return (error as Error).message;
  }
  throw new Error("expected a WikiLookupError");
}

describe("the shipped data", () => {
  it("holds SQuAD v1.1's dev set: 48 pages, 2,067 sections, 10,570 questions split 24/24 by article", () => {
    const pages = loadPages();
    expect(pages).toHaveLength(48);
    expect(pages.reduce((n, p) => n + p.sections.length, 0)).toBe(2067);
    expect(questions).toHaveLength(10_570);
    const split = (s: string) => new Set(questions.filter((q) => q.split === s).map((q) => q.page_id));
    expect(split("train").size).toBe(24);
    expect(split("eval").size).toBe(24);
    expect([...split("train")].filter((id) => split("eval").has(id))).toEqual([]);
  });

  it("puts every reference answer in the section a question names", () => {
    for (const q of questions) {
      const text = corpus.read(q.section_id);
      expect(q.section_id.startsWith(`${q.page_id}#`)).toBe(true);
      expect(q.answers.some((a) => text.includes(a))).toBe(true);
    }
  });
});

describe("WikiCorpus", () => {
  it("ranks the page of most questions first by BM25, and nearly all in the top five", () => {
    let first = 0;
    let topFive = 0;
    const sample = questions.filter((_, i) => i % 10 === 0);
    for (const q of sample) {
      const hits = corpus.search(q.question).map((h) => h.page_id);
      expect(hits.length).toBeLessThanOrEqual(5);
      if (hits[0] === q.page_id) first++;
      if (hits.includes(q.page_id)) topFive++;
    }
    expect(first / sample.length).toBeGreaterThan(0.75);
    expect(topFive / sample.length).toBeGreaterThan(0.95);
  });

  it("finds a page by its title words and lists its sections with their opening words", () => {
    expect(corpus.search("Fresno California")[0]).toEqual({
      page_id: "fresno_california",
      title: "Fresno, California",
    });
    const sections = corpus.sections("fresno_california");
    expect(sections).toHaveLength(28);
    expect(sections[0]!.section_id).toBe("fresno_california#1");
    expect(sections[0]!.preview).toMatch(/^Fresno .*…$/);
    expect(corpus.read("fresno_california#1").startsWith(sections[0]!.preview.slice(0, -1))).toBe(true);
  });

  it("takes a page's title where its id is asked for", () => {
    expect(corpus.sections("Fresno, California")).toHaveLength(28);
    expect(corpus.read("Sky (United Kingdom)#1")).toBe(corpus.read("sky_united_kingdom#1"));
  });

  it("says what ids look like when given a bad one", () => {
    expect(lookupError(() => corpus.sections("fresno_californa"))).toBe(
      'no page "fresno_californa": page ids look like "fresno_california" (the title in lower case, words joined by _); did you mean "fresno_california"?',
    );
    expect(lookupError(() => corpus.sections("atlantis"))).toMatch(
      /^no page "atlantis": .*; search_pages gives them$/,
    );
    expect(lookupError(() => corpus.sections("fresno_california#2"))).toMatch(
      /is a section id, not a page id/,
    );
    expect(lookupError(() => corpus.read("fresno_california"))).toBe(
      '"fresno_california" is not a section id: section ids look like "fresno_california#3" (a page id, #, the section\'s number from 1); view_sections lists them',
    );
    expect(lookupError(() => corpus.read("fresno_california#29"))).toBe(
      'page "fresno_california" has no section 29: its sections are fresno_california#1 to fresno_california#28',
    );
    expect(lookupError(() => corpus.search("  "))).toBe(
      "the query is empty: search for words of the question",
    );
    expect(lookupError(() => corpus.search("zzqxw"))).toBe('no page matches "zzqxw": try other words');
  });
});
