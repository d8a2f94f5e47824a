/**
 * The three tools, written once: the bundled MCP server registers them (wiki-server.ts), and
 * `inProcessWikiTools` gives the same functions as vf tools, for the in-process comparison of the
 * benchmark and for tests. Results are text: JSON for lists, the paragraph for a section.
 */
import { tool } from "@vf-rl/core";
import { z } from "zod";
import type { WikiCorpus } from "./wiki-corpus.ts";

/** One tool: its name, what the model is told, its argument schema and what it does with the corpus. */
export interface WikiToolSpec<Shape extends z.ZodRawShape> {
  name: string;
  description: string;
  parameters: Shape;
  run: (corpus: WikiCorpus, args: z.infer<z.ZodObject<Shape>>) => string;
}

// Descriptions are short on purpose: the model reads all three on every turn, and with them the
// first prompt fits the built-in model's context of 1,024 tokens. A bad id's error says what ids
// look like, so the schemas need no examples.
const searchPages: WikiToolSpec<{ query: z.ZodString }> = {
  name: "search_pages",
  description: "Search the pages: the best 5 as [{page_id, title}]",
  parameters: { query: z.string() },
  run: (corpus, { query }) => JSON.stringify(corpus.search(query)),
};

const viewSections: WikiToolSpec<{ page_id: z.ZodString }> = {
  name: "view_sections",
  description: "A page's sections as [{section_id, preview}]",
  parameters: { page_id: z.string() },
  run: (corpus, { page_id }) => JSON.stringify(corpus.sections(page_id)),
};

const readSection: WikiToolSpec<{ section_id: z.ZodString }> = {
  name: "read_section",
  description: "A section's text",
  parameters: { section_id: z.string() },
  run: (corpus, { section_id }) => corpus.read(section_id),
};

/** The tools in the order the model sees them. */
export const WIKI_TOOLS = [searchPages, viewSections, readSection] as const;

/** The same tools as vf tools over a corpus in this process (no MCP server), built at the first call. */
export function inProcessWikiTools(corpus: () => WikiCorpus) {
  return WIKI_TOOLS.map((spec) =>
    tool({
      name: spec.name,
      description: spec.description,
      parameters: z.object(spec.parameters),
      // biome-ignore lint/suspicious/noExplicitAny: each spec's run takes its own schema's arguments
      run: (args) => spec.run(corpus(), args as any),
    }),
  );
}
