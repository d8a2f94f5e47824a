/**
 * The reward and metrics. Offline (the default): SQuAD's token F1 of the reply against every
 * reference answer is the reward, exact match a metric. With a judge model, the judge's yes or no
 * is the reward and both SQuAD scores are metrics. Always: whether the answer's page and section
 * were read (a read_section call that did not fail).
 */
import {
  contentText,
  JudgeRubric,
  type Messages,
  type ModelClient,
  type RewardContext,
  Rubric,
} from "@vf-rl/core";
import { exactMatch, tokenF1 } from "./squad-score.ts";
import { pageIdOf } from "./squad-to-wiki.ts";
import { wikiInfo } from "./wiki-rows.ts";

/** The judge's question: is the reply right by the references, and coherent. */
export const WIKI_JUDGE_PROMPT = `Grade a reply to a question about a Wikipedia article.

Question:
{question}

Reference answers (any one is right):
{answer}

Reply:
{response}

Is the reply right by the reference answers, and coherent? A reply that states the right answer among incoherent or contradicting text is not right. Answer "yes" or "no" only.`;

/** The judge settings; without them the reward is offline. */
export interface WikiJudge {
  client: ModelClient;
  model: string;
}

function references(ctx: RewardContext): string[] {
  return wikiInfo(ctx.info)?.answers ?? [ctx.answer];
}

function reply(ctx: RewardContext): string {
  return ctx.parser.parseAnswer(ctx.completion) ?? "";
}

/** SQuAD token F1 of the reply, best over the references. */
export function f1(ctx: RewardContext): number {
  return tokenF1(reply(ctx), references(ctx));
}

/** SQuAD exact match of the reply, 1 or 0. */
export function exact(ctx: RewardContext): number {
  return exactMatch(reply(ctx), references(ctx));
}

/** Section ids of read_section calls answered without an error. */
function sectionsRead(completion: Messages): string[] {
  const answered = new Map<string, string>();
  for (const m of completion) if (m.role === "tool") answered.set(m.tool_call_id, contentText(m.content));
  const read: string[] = [];
  for (const m of completion) {
    if (m.role !== "assistant") continue;
    for (const call of m.tool_calls ?? []) {
      if (call.function.name !== "read_section") continue;
      const result = answered.get(call.id);
      if (result === undefined || result.startsWith("Error:")) continue;
      try {
        const id = (JSON.parse(call.function.arguments) as { section_id?: unknown }).section_id;
        if (typeof id === "string") read.push(id.trim());
      } catch {
        // Arguments that are not JSON were answered with an error, handled above.
      }
    }
  }
  return read;
}

/** 1 when a section of the answer's page was read. */
export function answerPageRead(ctx: RewardContext): number {
  const page = wikiInfo(ctx.info)?.page_id;
  return sectionsRead(ctx.completion).some((id) => pageIdOf(id.split("#")[0]!) === page) ? 1 : 0;
}

/** 1 when the section holding the answer was read. */
export function answerSectionRead(ctx: RewardContext): number {
  const info = wikiInfo(ctx.info);
  if (info === undefined) return 0;
  const [page, n] = info.section_id.split("#");
  return sectionsRead(ctx.completion).some((id) => {
    const [readPage, readN] = id.split("#");
    return pageIdOf(readPage!) === page && Number(readN) === Number(n);
  })
    ? 1
    : 0;
}

/** The rubric: judge or F1 as the reward, the rest as metrics. */
export function wikiRubric(judge?: WikiJudge): Rubric {
  const rubric = judge
    ? new JudgeRubric({ client: judge.client, model: judge.model, prompt: WIKI_JUDGE_PROMPT })
    : new Rubric();
  if (rubric instanceof JudgeRubric) {
    rubric.addReward(
      async (ctx) => {
        const verdict = await rubric.judge({ ...ctx, answer: references(ctx).join(" | ") });
        return /^\W*yes\b/i.test(verdict.trim()) ? 1 : 0;
      },
      { name: "judge_correct" },
    );
    rubric.addMetric(f1, { name: "f1" });
  } else {
    rubric.addReward(f1, { name: "f1" });
  }
  return rubric
    .addMetric(exact, { name: "exact_match" })
    .addMetric(answerPageRead, { name: "answer_page_read" })
    .addMetric(answerSectionRead, { name: "answer_section_read" });
}
