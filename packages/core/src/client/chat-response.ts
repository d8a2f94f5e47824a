/**
 * Reads a chat-completions response body into a `ModelResponse`, and rejects what cannot be used:
 * no response or no choices (`EmptyModelResponseError`), several choices or a wrong shape
 * (`InvalidModelResponseError`), no content and no tool calls (`EmptyModelResponseError`).
 * vLLM's token fields become `tokens`; other servers give `tokens: null`.
 */
import { z } from "zod";
import { EmptyModelResponseError, InvalidModelResponseError } from "../errors.ts";
import type { AssistantMessage, ToolCall } from "../messages/message.ts";
import type { ModelResponse, TurnTokens } from "./model-client.ts";
import { checkedObject, finishReasonOf, invalidShape, onlyChoice } from "./response-checks.ts";

/** The fields of a chat completion that vf reads; others (vLLM's, providers') are ignored. */
export const ChatCompletionBody = z.object({
  id: z.string().nullish(),
  model: z.string().nullish(),
  choices: z.array(z.unknown()).nullish(),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number() }).nullish(),
  /** vLLM: the prompt as the server tokenised it. */
  prompt_token_ids: z.array(z.number()).nullish(),
});
export type ChatCompletionBody = z.infer<typeof ChatCompletionBody>;

/** One tool call on the wire; lenient about a missing id or object arguments, which some servers send. */
const WireToolCall = z.object({
  id: z.string().nullish(),
  function: z.object({
    name: z.string(),
    arguments: z.union([z.string(), z.record(z.string(), z.unknown())]),
  }),
});

/** The one choice vf reads. `logprobs.content` is checked by hand: it can be thousands of entries. */
export const ChatCompletionChoice = z.object({
  message: z.object({
    content: z.string().nullish(),
    tool_calls: z.array(WireToolCall).nullish(),
    /** DeepSeek and vLLM's reasoning parsers. */
    reasoning_content: z.string().nullish(),
    /** OpenRouter and newer vLLM name the same field `reasoning`. */
    reasoning: z.string().nullish(),
  }),
  finish_reason: z.string().nullish(),
  /** vLLM: the sampled token ids. */
  token_ids: z.array(z.number()).nullish(),
  logprobs: z.object({ content: z.array(z.unknown()).nullish() }).nullish(),
});
export type ChatCompletionChoice = z.infer<typeof ChatCompletionChoice>;

const CHAT_API = "the OpenAI chat-completions API";

/** Reads a response body from `url` into a `ModelResponse`, or throws the typed error saying why it can't. */
export function toModelResponse(body: unknown, url: string): ModelResponse {
  const parsed = ChatCompletionBody.safeParse(checkedObject(body, url, "chat completion"));
  if (!parsed.success) throw invalidShape(url, parsed.error, "chat completion", CHAT_API);
  const completion = parsed.data;
  const only = onlyChoice(completion.choices ?? [], url, 'remove "n" from the sampling args');
  const choiceResult = ChatCompletionChoice.safeParse(only);
  if (!choiceResult.success) throw invalidShape(url, choiceResult.error, "chat completion", CHAT_API);
  const choice = choiceResult.data;

  const toolCalls = (choice.message.tool_calls ?? []).map(
    (call, i): ToolCall => ({
      id: call.id ?? `call_${i}`,
      type: "function",
      function: {
        name: call.function.name,
        arguments:
          typeof call.function.arguments === "string"
            ? call.function.arguments
            : JSON.stringify(call.function.arguments),
      },
    }),
  );
  const content = choice.message.content ?? null;
  if ((content === null || content === "") && toolCalls.length === 0) {
    throw new EmptyModelResponseError(
      `the model endpoint ${url} returned no content and no tool calls (finish_reason ${String(choice.finish_reason)}): raise max_tokens if it is "length", else check the model's chat template`,
    );
  }
  const message: AssistantMessage = { role: "assistant", content };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  const reasoning = choice.message.reasoning_content ?? choice.message.reasoning;
  if (reasoning) message.reasoning_content = reasoning;

  return {
    id: completion.id ?? "",
    model: completion.model ?? "",
    message,
    finishReason: finishReasonOf(choice.finish_reason),
    usage: {
      promptTokens: completion.usage?.prompt_tokens ?? 0,
      completionTokens: completion.usage?.completion_tokens ?? 0,
    },
    tokens: turnTokens(completion, choice, url),
  };
}

/** vLLM's token fields, when the server sent both id lists; logprobs must then match the completion ids. */
function turnTokens(
  completion: ChatCompletionBody,
  choice: ChatCompletionChoice,
  url: string,
): TurnTokens | null {
  const promptIds = completion.prompt_token_ids;
  const completionIds = choice.token_ids;
  if (!promptIds || !completionIds) return null;
  const entries = choice.logprobs?.content ?? [];
  const completionLogprobs: number[] = new Array(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const logprob = (entries[i] as { logprob?: unknown } | null)?.logprob;
    if (typeof logprob !== "number") {
      throw new InvalidModelResponseError(
        `the model endpoint ${url} returned logprobs.content[${i}] without a numeric logprob: check the server's logprobs support`,
      );
    }
    completionLogprobs[i] = logprob;
  }
  if (entries.length > 0 && entries.length !== completionIds.length) {
    throw new InvalidModelResponseError(
      `the model endpoint ${url} returned ${completionIds.length} token_ids but ${entries.length} logprobs: training needs one logprob per sampled token; check the server version`,
    );
  }
  return { promptIds, completionIds, completionLogprobs };
}
