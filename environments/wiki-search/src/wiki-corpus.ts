/**
 * The searchable corpus behind the three tools: pages ranked by BM25 over their title and text
 * (minisearch), a page's sections, one section's text. Ids a model gets wrong raise a
 * `WikiLookupError` whose message says what ids look like, which the model reads as a tool error.
 */
import { closestMatch } from "@vf-rl/core/config";
import MiniSearch from "minisearch";
import { pageIdOf } from "./squad-to-wiki.ts";
import { sectionId, type WikiPage } from "./wiki-data.ts";

/** A tool was given an id, or a query, it cannot use; the message says what to pass instead. */
export class WikiLookupError extends Error {
  override name = "WikiLookupError";
}

/** One search hit. */
export interface PageHit {
  page_id: string;
  title: string;
}

/** One entry of `view_sections`: the section's id and its opening words. */
export interface SectionEntry {
  section_id: string;
  preview: string;
}

/** Hits `search` returns by default. */
export const SEARCH_LIMIT = 5;
const PREVIEW_CHARS = 80;
const PAGE_ID_SHAPE = 'page ids look like "fresno_california" (the title in lower case, words joined by _)';
const SECTION_ID_SHAPE =
  'section ids look like "fresno_california#3" (a page id, #, the section\'s number from 1)';

/** The pages, their BM25 index, and lookups by id. Built once per process; every method is a read. */
export class WikiCorpus {
  private readonly pages = new Map<string, WikiPage>();
  private readonly index = new MiniSearch<{ id: string; title: string; text: string }>({
    fields: ["title", "text"],
    storeFields: ["title"],
    searchOptions: { boost: { title: 3 } },
  });

  constructor(pages: readonly WikiPage[]) {
    for (const page of pages) this.pages.set(page.id, page);
    this.index.addAll(pages.map((p) => ({ id: p.id, title: p.title, text: p.sections.join("\n") })));
  }

  /** Number of pages. */
  get size(): number {
    return this.pages.size;
  }

  /** The best pages for `query` by BM25 over title and text, at most `limit`. */
  search(query: string, limit = SEARCH_LIMIT): PageHit[] {
    if (query.trim() === "")
      throw new WikiLookupError("the query is empty: search for words of the question");
    const hits = this.index.search(query).slice(0, limit);
    if (hits.length === 0) throw new WikiLookupError(`no page matches "${query}": try other words`);
    return hits.map((hit) => ({ page_id: String(hit.id), title: String(hit.title) }));
  }

  /** A page's sections in order, each with its id and first words. */
  sections(pageId: string): SectionEntry[] {
    const page = this.page(pageId);
    return page.sections.map((text, i) => ({
      section_id: sectionId(page.id, i + 1),
      preview: preview(text),
    }));
  }

  /** The text of one section, `<page_id>#<n>`. */
  read(id: string): string {
    const match = /^(.*)#\s*(\d+)$/.exec(id.trim());
    if (!match)
      throw new WikiLookupError(`"${id}" is not a section id: ${SECTION_ID_SHAPE}; view_sections lists them`);
    const page = this.page(match[1]!);
    const n = Number(match[2]);
    const text = page.sections[n - 1];
    if (text === undefined) {
      throw new WikiLookupError(
        `page "${page.id}" has no section ${n}: its sections are ${sectionId(page.id, 1)} to ${sectionId(page.id, page.sections.length)}`,
      );
    }
    return text;
  }

  /** The page of an id, also when given as a title (`Fresno, California`). */
  private page(id: string): WikiPage {
    const page = this.pages.get(id.trim()) ?? this.pages.get(pageIdOf(id));
    if (page !== undefined) return page;
    if (id.includes("#")) {
      throw new WikiLookupError(`"${id}" is a section id, not a page id: ${PAGE_ID_SHAPE}`);
    }
    const near = closestMatch(pageIdOf(id), [...this.pages.keys()]);
    const hint = near === undefined ? "search_pages gives them" : `did you mean "${near}"?`;
    throw new WikiLookupError(`no page "${id}": ${PAGE_ID_SHAPE}; ${hint}`);
  }
}

function preview(text: string): string {
  if (text.length <= PREVIEW_CHARS) return text;
  const cut = text.slice(0, PREVIEW_CHARS);
  const space = cut.lastIndexOf(" ");
  return `${space > PREVIEW_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}
