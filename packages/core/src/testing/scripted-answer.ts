/**
 * A scripted message reply as the answer the dialect codecs write: the assistant message (tool call
 * ids `call_<request>_<n>` unless scripted), the finish reason, usage counted with the scripted
 * tokenizer, and vLLM's token ids and logprobs when asked for.
 */
import type { DialectAnswer, DialectApi, TokenText } from "../dialects/index.ts";
import type { AssistantMessage } from "../messages/message.ts";
import type { ScriptedReply, ScriptedRequest } from "./scripted-reply.ts";
import {
  countTokens,
  IM_END,
  logprobContent,
  renderCompletion,
  renderPrompt,
  type Segment,
  tokenIds,
  tokenLogprob,
} from "./scripted-tokens.ts";

/** A scripted message reply. */
export type MessageReply = Extract<ScriptedReply, { type: "message" }>;

/** What an answer needs besides the reply. */
export interface ScriptedAnswerContext {
  /** The answer's id, e.g. chatcmpl-scripted-3. */
  id: string;
  /** Epoch seconds. */
  created: number;
  /** The request's index, from 0 in arrival order. */
  index: number;
  /** Whether to add vLLM's token fields. */
  withTokens: boolean;
}

/** The assistant message of a reply. */
export function scriptedMessage(reply: MessageReply, index: number): AssistantMessage {
  const message: AssistantMessage = { role: "assistant", content: reply.content ?? null };
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
export function scriptedFinishReason(reply: MessageReply): string {
  return reply.finishReason ?? (reply.toolCalls && reply.toolCalls.length > 0 ? "tool_calls" : "stop");
}

/** The answer to `request` over `api`; see the file comment. */
export function scriptedAnswer(
  api: DialectApi,
  request: ScriptedRequest,
  reply: MessageReply,
  context: ScriptedAnswerContext,
): DialectAnswer {
  const message = scriptedMessage(reply, context.index);
  // Text completions render no template: the prompt is the text sent, the completion its text.
  let prompt: Segment[];
  let completion: Segment[];
  if (api === "openai_completions") {
    prompt = [request.messages[0]!.content as string];
    completion = [reply.content ?? "", IM_END];
  } else {
    prompt = renderPrompt(request.messages, request.tools);
    completion = renderCompletion(message);
  }
  let tokens: DialectAnswer["tokens"] = null;
  if (context.withTokens) {
    const completionIds = tokenIds(completion);
    tokens = {
      promptIds: tokenIds(prompt),
      completionIds,
      completionLogprobs: completionIds.map(tokenLogprob),
    };
  }
  return {
    id: context.id,
    created: context.created,
    model: request.model,
    message,
    finishReason: scriptedFinishReason(reply),
    usage: { promptTokens: countTokens(prompt), completionTokens: countTokens(completion) },
    tokens,
  };
}

/** How the scripted tokenizer's ids read in `logprobs.content`. */
export const scriptedTokenText: TokenText = (id) => {
  const entry = logprobContent([id])[0]!;
  return { token: entry.token, bytes: entry.bytes };
};
