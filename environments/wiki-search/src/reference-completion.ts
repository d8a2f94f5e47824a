/**
 * How a perfect model answers a row: it searches for the question, lists the sections of the
 * answer's page, reads the section that holds the answer, and replies with the answer alone. The
 * tool results are the very ones the tools give, so a scripted model replaying this conversation
 * meets them (and `vf sft` trains on true tool use).
 */
import type { AssistantMessage, Messages, ToolMessage } from "@vf-rl/core";
import type { WikiCorpus } from "./wiki-corpus.ts";
import type { WikiInfo } from "./wiki-rows.ts";
import { WIKI_TOOLS } from "./wiki-tools.ts";

/** The reference conversation of a row whose question is `question`. */
export function referenceCompletion(corpus: WikiCorpus, question: string, info: WikiInfo): Messages {
  const steps: Array<[name: string, args: Record<string, string>]> = [
    ["search_pages", { query: question }],
    ["view_sections", { page_id: info.page_id }],
    ["read_section", { section_id: info.section_id }],
  ];
  const messages: Messages = [];
  steps.forEach(([name, args], i) => {
    const spec = WIKI_TOOLS.find((t) => t.name === name)!;
    let result: string;
    try {
      // biome-ignore lint/suspicious/noExplicitAny: each spec's run takes its own schema's arguments
      result = spec.run(corpus, args as any);
    } catch (error) {
      // The question's words may find nothing; the tools say so, and a perfect model goes on.
      result = `Error: ${name} failed: ${(error as Error).message}`;
    }
    const id = `call_${i}`;
    const call: AssistantMessage = {
      role: "assistant",
      content: null,
      tool_calls: [{ id, type: "function", function: { name, arguments: JSON.stringify(args) } }],
    };
    const reply: ToolMessage = { role: "tool", tool_call_id: id, content: result };
    messages.push(call, reply);
  });
  messages.push({ role: "assistant", content: info.answers[0] ?? "" });
  return messages;
}
