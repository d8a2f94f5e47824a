/**
 * The chat-completions API as the scripted server speaks it (POST /v1/chat/completions): the JSON of
 * a whole completion (with vLLM's token fields when asked) and the SSE chunks of a streamed one.
 * Request bodies are what scripts see, unchanged.
 */
import {
  type AnswerContext,
  hasBearer,
  type MessageReply,
  openAIError,
  type ScriptedDialect,
} from "./scripted-dialect.ts";
import type { ScriptedRequest } from "./scripted-reply.ts";
import { countTokens, logprobContent, renderCompletion, renderPrompt, tokenIds } from "./scripted-tokens.ts";

/** What one completion needs besides the reply. */
export type CompletionContext = Omit<AnswerContext, "index">;

/** The assistant message of a reply, in wire shape. */
export function wireMessage(reply: MessageReply, index: number): Record<string, unknown> {
  const message: Record<string, unknown> = { role: "assistant", content: reply.content ?? null };
  if (reply.reasoningContent !== undefined) message.reasoning_content = reply.reasoningContent;
  if (reply.toolCalls && reply.toolCalls.length > 0) {
    message.tool_calls = reply.toolCalls.map((call, i) => ({
      id: call.id ?? `call_${index}_${i}`,
      type: "function",
      function: {
        name: call.name,
        arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
      },
    }));
  }
  return message;
}

/** The finish reason of a reply: as scripted, else "tool_calls" when it calls tools, else "stop". */
export function finishReasonOf(reply: MessageReply): string {
  return reply.finishReason ?? (reply.toolCalls && reply.toolCalls.length > 0 ? "tool_calls" : "stop");
}

/** The JSON body of a non-streamed completion. */
export function completionBody(
  request: ScriptedRequest,
  reply: MessageReply,
  index: number,
  context: CompletionContext,
): string {
  const message = wireMessage(reply, index);
  const prompt = renderPrompt(request.messages, request.tools);
  const completion = renderCompletion(message as { role: string });
  const choice: Record<string, unknown> = {
    index: 0,
    message,
    logprobs: null,
    finish_reason: finishReasonOf(reply),
  };
  const body: Record<string, unknown> = {
    id: context.id,
    object: "chat.completion",
    created: context.created,
    model: request.model,
    choices: [choice],
  };
  let promptTokens: number;
  let completionTokens: number;
  if (context.withTokens) {
    const promptIds = tokenIds(prompt);
    const completionIds = tokenIds(completion);
    choice.token_ids = completionIds;
    choice.logprobs = { content: logprobContent(completionIds) };
    body.prompt_token_ids = promptIds;
    promptTokens = promptIds.length;
    completionTokens = completionIds.length;
  } else {
    promptTokens = countTokens(prompt);
    completionTokens = countTokens(completion);
  }
  body.usage = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
  return JSON.stringify(body);
}

/** The JSON body of a completion with no choices. */
export function emptyBody(request: ScriptedRequest, context: CompletionContext): string {
  return JSON.stringify({
    id: context.id,
    object: "chat.completion",
    created: context.created,
    model: request.model,
    choices: [],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  });
}

/**
 * The SSE events of a streamed completion, each a full `data: ...\n\n` line, ending with `[DONE]`.
 * Content comes a word at a time; token fields are not streamed (ask without `stream` for them).
 */
export function completionChunks(
  request: ScriptedRequest,
  reply: MessageReply | null,
  index: number,
  context: CompletionContext,
): string[] {
  const base = {
    id: context.id,
    object: "chat.completion.chunk",
    created: context.created,
    model: request.model,
  };
  const event = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ ...base, choices, ...extra })}\n\n`;
  const delta = (d: Record<string, unknown>, finish: string | null = null) => ({
    index: 0,
    delta: d,
    logprobs: null,
    finish_reason: finish,
  });
  const events: string[] = [];
  if (reply !== null) {
    const message = wireMessage(reply, index);
    events.push(event([delta({ role: "assistant", content: "" })]));
    if (reply.reasoningContent !== undefined) {
      events.push(event([delta({ reasoning_content: reply.reasoningContent })]));
    }
    for (const piece of (reply.content ?? "").match(/\s*\S+\s*|\s+/g) ?? []) {
      events.push(event([delta({ content: piece })]));
    }
    const toolCalls = (message.tool_calls as Array<Record<string, unknown>> | undefined) ?? [];
    toolCalls.forEach((call, i) => {
      events.push(event([delta({ tool_calls: [{ index: i, ...call }] })]));
    });
    events.push(event([delta({}, finishReasonOf(reply))]));
    const streamOptions = request.stream_options as { include_usage?: boolean } | undefined;
    if (streamOptions?.include_usage) {
      const promptTokens = countTokens(renderPrompt(request.messages, request.tools));
      const completionTokens = countTokens(renderCompletion(message as { role: string }));
      events.push(
        event([], {
          usage: {
            prompt_tokens: promptTokens,
            completion_tokens: completionTokens,
            total_tokens: promptTokens + completionTokens,
          },
        }),
      );
    }
  }
  events.push("data: [DONE]\n\n");
  return events;
}

/** POST /v1/chat/completions. */
export const chatDialect: ScriptedDialect = {
  api: "openai_chat_completions",
  path: "/v1/chat/completions",
  idPrefix: "chatcmpl-scripted-",
  view: (body) => {
    if (!Array.isArray(body.messages)) return "request body needs a messages array";
    if (body.n !== undefined && body.n !== 1)
      return `the scripted server answers n=1 only, got n=${String(body.n)}`;
    return body as ScriptedRequest;
  },
  hasKey: hasBearer,
  wantsTokens: (view) => view.logprobs === true || view.return_token_ids === true,
  message: (view, reply, context) => completionBody(view, reply, context.index, context),
  empty: (view, context) => emptyBody(view, context),
  error: openAIError,
  stream: (view, reply, context) => completionChunks(view, reply, context.index, context),
};
