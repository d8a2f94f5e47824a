/**
 * wiki-search: answer a question about one of 48 Wikipedia articles (SQuAD v1.1's dev set) by
 * searching them with three tools served by a bundled MCP server (stdio, one per environment):
 * `search_pages(query)`, `view_sections(page_id)` and `read_section(section_id)`. Offline.
 * Reward: SQuAD's token F1 of the reply against every reference answer (`f1`); with `judgeModel`, a
 * judge's yes or no (`judge_correct`) and F1 as a metric. Metrics: `exact_match`,
 * `answer_page_read`, `answer_section_read`, and ToolEnv's tool calls by name and turns.
 *
 * @example
 * const env = await loadEnvironment({ numEval: 20 });
 */
import { defineEnvironment, OpenAIModelClient, ToolEnv } from "@vf-rl/core";
import { NO_API_KEY } from "@vf-rl/core/client";
import { z } from "zod";
import { referenceCompletion } from "./reference-completion.ts";
import { WikiCorpus } from "./wiki-corpus.ts";
import { loadPages } from "./wiki-data.ts";
import { loadWikiRows, wikiInfo } from "./wiki-rows.ts";
import { wikiRubric } from "./wiki-rubric.ts";
import { wikiServerCommand } from "./wiki-server-main.ts";
import { inProcessWikiTools } from "./wiki-tools.ts";

export { exactMatch, normalizeAnswer, tokenF1 } from "./squad-score.ts";
export { EVAL_ARTICLES, pageIdOf, SquadFile, squadToWiki } from "./squad-to-wiki.ts";
export { type PageHit, SEARCH_LIMIT, type SectionEntry, WikiCorpus, WikiLookupError } from "./wiki-corpus.ts";
export { loadPages, loadQuestions, WikiPage, WikiQuestion, WikiSplit } from "./wiki-data.ts";
export { createWikiMcpServer } from "./wiki-mcp-server.ts";
export { loadWikiRows, type WikiInfo } from "./wiki-rows.ts";
export { answerPageRead, answerSectionRead, WIKI_JUDGE_PROMPT, wikiRubric } from "./wiki-rubric.ts";
export { wikiServerCommand } from "./wiki-server-main.ts";
export { inProcessWikiTools, WIKI_TOOLS } from "./wiki-tools.ts";

/** The system prompt of every row; short, like the tools' descriptions, to leave the model room. */
export const SYSTEM_PROMPT = "Look the answer up with the tools, then reply with it alone, in a few words.";

/** The arguments of `loadEnvironment` (`vf eval wiki-search -a '{...}'`). */
export const WikiSearchArgs = z
  .object({
    /** Training questions to keep (of 4,961), after the seeded shuffle; all when absent. */
    numTrain: z.number().int().positive().optional(),
    /** Evaluation questions to keep (of 5,609), after the seeded shuffle; all when absent. */
    numEval: z.number().int().positive().optional(),
    /** Seed of both splits' order. */
    seed: z.number().int().default(0),
    /** Model turns per rollout, tool-calling turns included. */
    maxTurns: z.number().int().positive().default(10),
    /** Where the tools run: the bundled MCP server (default), or in vf's own process. */
    tools: z.enum(["mcp", "in-process"]).default("mcp"),
    /** A judge model: its yes or no becomes the reward. Offline F1 when absent. */
    judgeModel: z.string().min(1).optional(),
    /** The judge's OpenAI-compatible endpoint. */
    judgeBaseUrl: z.url().default("https://api.openai.com/v1"),
    /** The variable that holds the judge's API key ("EMPTY" when it is not set, for local servers). */
    judgeApiKeyVar: z.string().min(1).default("OPENAI_API_KEY"),
  })
  .strict();
export type WikiSearchArgs = z.infer<typeof WikiSearchArgs>;

let corpus: WikiCorpus | undefined;
/** The corpus in this process, built at first use (the MCP server builds its own). */
function localCorpus(): WikiCorpus {
  corpus ??= new WikiCorpus(loadPages());
  return corpus;
}

/** Loads the wiki-search environment; see `WikiSearchArgs` for the arguments. */
export const loadEnvironment = defineEnvironment({
  args: WikiSearchArgs,
  load: ({ numTrain, numEval, seed, maxTurns, tools, judgeModel, judgeBaseUrl, judgeApiKeyVar }) => {
    const judge =
      judgeModel === undefined
        ? undefined
        : {
            model: judgeModel,
            client: new OpenAIModelClient({
              baseUrl: judgeBaseUrl,
              apiKey: process.env[judgeApiKeyVar] || NO_API_KEY,
              apiKeyVar: judgeApiKeyVar,
            }),
          };
    return new ToolEnv({
      dataset: () => loadWikiRows("train", seed, numTrain),
      evalDataset: () => loadWikiRows("eval", seed, numEval),
      systemPrompt: SYSTEM_PROMPT,
      maxTurns,
      ...(tools === "mcp"
        ? { mcpServers: [{ type: "stdio" as const, name: "wiki", ...wikiServerCommand() }] }
        : { tools: inProcessWikiTools(localCorpus) }),
      rubric: wikiRubric(judge),
      referenceCompletion: (input) => {
        const info = wikiInfo(input.info);
        if (info === undefined) return [{ role: "assistant", content: input.answer }];
        const question = input.prompt.at(-1);
        return referenceCompletion(
          localCorpus(),
          typeof question?.content === "string" ? question.content : "",
          info,
        );
      },
    });
  },
});
