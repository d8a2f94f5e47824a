/**
 * Reads a text-completion response (`openai_completions`) into a `ModelResponse`: the choice's text
 * becomes the assistant message, and vLLM's per-choice token fields (`prompt_token_ids`, `token_ids`,
 * `logprobs.token_logprobs`) become `tokens`. Rejects what cannot be used, as chat-response.ts does.
 */
import { z } from "zod";
import { EmptyModelResponseError, InvalidModelResponseError } from "../errors.ts";
import type { ModelResponse, TurnTokens } from "./model-client.ts";
import { checkedObject, finishReasonOf, invalidShape, onlyChoice } from "./response-checks.ts";

/** The fields of a text completion that vf reads. */
export const CompletionBody = z.object({
  id: z.string().nullish(),
  model: z.string().nullish(),
  choices: z
    .array(
      z.object({
        text: z.string().nullish(),
        finish_reason: z.string().nullish(),
        /** vLLM: the prompt as the server tokenised it (on the choice for this API). */
        prompt_token_ids: z.array(z.number()).nullish(),
        /** vLLM: the sampled token ids. */
        token_ids: z.array(z.number()).nullish(),
        /** The legacy logprobs object: one entry per sampled token. */
        logprobs: z.object({ token_logprobs: z.array(z.number().nullable()).nullish() }).nullish(),
      }),
    )
    .nullish(),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number() }).nullish(),
});
export type CompletionBody = z.infer<typeof CompletionBody>;

/** Reads a completions body from `url`, or throws the typed error saying why it can't be used. */
export function completionToModelResponse(body: unknown, url: string): ModelResponse {
  const parsed = CompletionBody.safeParse(checkedObject(body, url, "text completion"));
  if (!parsed.success) throw invalidShape(url, parsed.error, "text completion", "the OpenAI completions API");
  const completion = parsed.data;
  const choice = onlyChoice(completion.choices ?? [], url, 'remove "n" and "best_of" from the sampling args');
  const text = choice.text ?? "";
  if (text === "") {
    throw new EmptyModelResponseError(
      `the model endpoint ${url} returned an empty text (finish_reason ${String(choice.finish_reason)}): raise max_tokens if it is "length", else check the prompt rendering`,
    );
  }
  return {
    id: completion.id ?? "",
    model: completion.model ?? "",
    message: { role: "assistant", content: text },
    finishReason: finishReasonOf(choice.finish_reason),
    usage: {
      promptTokens: completion.usage?.prompt_tokens ?? 0,
      completionTokens: completion.usage?.completion_tokens ?? 0,
    },
    tokens: choiceTokens(choice, url),
  };
}

type Choice = NonNullable<CompletionBody["choices"]>[number];

function choiceTokens(choice: Choice, url: string): TurnTokens | null {
  const promptIds = choice.prompt_token_ids;
  const completionIds = choice.token_ids;
  if (!promptIds || !completionIds) return null;
  const logprobs = choice.logprobs?.token_logprobs ?? [];
  if (logprobs.some((logprob) => logprob === null)) {
    throw new InvalidModelResponseError(
      `the model endpoint ${url} returned a null token logprob: check the server's logprobs support`,
    );
  }
  if (logprobs.length > 0 && logprobs.length !== completionIds.length) {
    throw new InvalidModelResponseError(
      `the model endpoint ${url} returned ${completionIds.length} token_ids but ${logprobs.length} logprobs: training needs one logprob per sampled token; check the server version`,
    );
  }
  return { promptIds, completionIds, completionLogprobs: logprobs as number[] };
}
