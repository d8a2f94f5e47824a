/**
 * The text-completions API as the scripted server speaks it (POST /v1/completions): scripts see the
 * text prompt as one user message; the reply's content comes back as `choices[0].text`, with vLLM's
 * per-choice token fields when asked (`return_token_ids`, or `logprobs` as a count). This API has no
 * tool calls, so a reply that makes some is an error of the script.
 */
import { finishReasonOf } from "./scripted-completion.ts";
import { hasBearer, openAIError, type ScriptedDialect } from "./scripted-dialect.ts";
import type { ScriptedRequest } from "./scripted-reply.ts";
import { countTokens, IM_END, tokenIds, tokenLogprob } from "./scripted-tokens.ts";

/** The prompt as text, or why it is refused. */
function promptText(body: Record<string, unknown>): string | { problem: string } {
  const prompt = Array.isArray(body.prompt) && body.prompt.length === 1 ? body.prompt[0] : body.prompt;
  if (typeof prompt !== "string") {
    return { problem: "the scripted server takes one text prompt (a string) on /v1/completions" };
  }
  return prompt;
}

/** POST /v1/completions. */
export const textCompletionDialect: ScriptedDialect = {
  api: "openai_completions",
  path: "/v1/completions",
  idPrefix: "cmpl-scripted-",
  view: (body) => {
    const prompt = promptText(body);
    if (typeof prompt !== "string") return prompt.problem;
    if (body.n !== undefined && body.n !== 1)
      return `the scripted server answers n=1 only, got n=${String(body.n)}`;
    return {
      ...body,
      model: String(body.model),
      messages: [{ role: "user", content: prompt }],
    } as ScriptedRequest;
  },
  hasKey: hasBearer,
  wantsTokens: (view) => view.return_token_ids === true || typeof view.logprobs === "number",
  message: (view, reply, context) => {
    if (reply.toolCalls && reply.toolCalls.length > 0) {
      throw new Error("the reply has tool calls, which the completions API cannot carry: reply with text");
    }
    const prompt = [view.messages[0]!.content as string];
    const completion = [reply.content ?? "", IM_END];
    const choice: Record<string, unknown> = {
      index: 0,
      text: reply.content ?? "",
      logprobs: null,
      finish_reason: finishReasonOf(reply),
    };
    if (context.withTokens) {
      const completionIds = tokenIds(completion);
      choice.prompt_token_ids = tokenIds(prompt);
      choice.token_ids = completionIds;
      choice.logprobs = { token_logprobs: completionIds.map(tokenLogprob) };
    }
    const promptTokens = countTokens(prompt);
    const completionTokens = countTokens(completion);
    return JSON.stringify({
      id: context.id,
      object: "text_completion",
      created: context.created,
      model: view.model,
      choices: [choice],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
      },
    });
  },
  empty: (view, context) =>
    JSON.stringify({
      id: context.id,
      object: "text_completion",
      created: context.created,
      model: view.model,
      choices: [],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    }),
  error: openAIError,
};
