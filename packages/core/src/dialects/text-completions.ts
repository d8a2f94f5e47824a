/**
 * OpenAI's text-completions API (POST /v1/completions): the one text prompt reads as one user
 * message; the reply's text comes back as `choices[0].text`, with vLLM's per-choice token fields
 * when there are some. This API has no tool calls, so a reply that makes some cannot be said in it.
 * Not streamed here.
 */
import { contentText } from "../messages/message.ts";
import { bearerKey, type Dialect, pickSampling } from "./dialect.ts";
import { openAIError } from "./error-bodies.ts";

const SAMPLING_KEYS = [
  "max_tokens",
  "temperature",
  "top_p",
  "top_k",
  "min_p",
  "stop",
  "seed",
  "presence_penalty",
  "frequency_penalty",
  "repetition_penalty",
  "logprobs",
  "return_token_ids",
];

/** The prompt as text, or undefined when it is not one string. */
export function textPrompt(body: Record<string, unknown>): string | undefined {
  const prompt = Array.isArray(body.prompt) && body.prompt.length === 1 ? body.prompt[0] : body.prompt;
  return typeof prompt === "string" ? prompt : undefined;
}

/** POST /v1/completions. */
export const textCompletionDialect: Dialect = {
  api: "openai_completions",
  path: "/v1/completions",
  idPrefix: "cmpl-",
  read: (body) => {
    const prompt = textPrompt(body);
    if (prompt === undefined) return "prompt must be one text (a string) on /v1/completions";
    if (body.n !== undefined && body.n !== null && body.n !== 1) {
      return `one answer per request: n=1 only, got n=${String(body.n)}`;
    }
    return {
      model: typeof body.model === "string" ? body.model : "",
      messages: [{ role: "user", content: prompt }],
      stream: body.stream === true,
      sampling: pickSampling(body, SAMPLING_KEYS),
      body,
    };
  },
  keyOf: bearerKey,
  wantsTokens: (request) =>
    request.body.return_token_ids === true || typeof request.body.logprobs === "number",
  answer: (answer) => {
    if (answer.message.tool_calls && answer.message.tool_calls.length > 0) {
      throw new Error("the reply has tool calls, which the completions API cannot carry: reply with text");
    }
    const text = contentText(answer.message.content);
    const choice: Record<string, unknown> = {
      index: 0,
      text,
      logprobs: null,
      finish_reason: answer.finishReason,
    };
    if (answer.tokens) {
      choice.prompt_token_ids = answer.tokens.promptIds;
      choice.token_ids = answer.tokens.completionIds;
      choice.logprobs = { token_logprobs: answer.tokens.completionLogprobs };
    }
    const { promptTokens, completionTokens } = answer.usage;
    return JSON.stringify({
      id: answer.id,
      object: "text_completion",
      created: answer.created,
      model: answer.model,
      choices: [choice],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
      },
    });
  },
  empty: (answer) =>
    JSON.stringify({
      id: answer.id,
      object: "text_completion",
      created: answer.created,
      model: answer.model,
      choices: [],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    }),
  error: openAIError,
};
