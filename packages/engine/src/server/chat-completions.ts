/**
 * POST /v1/chat/completions: the OpenAI chat API over the engine, whole or streamed, with vLLM's
 * token fields (`prompt_token_ids`, `choices[].token_ids`) when the request sets `return_token_ids`
 * or `logprobs`, and tool calls parsed from `<tool_call>` blocks when it offers tools.
 */
import { randomBytes } from "node:crypto";
import type { Context } from "hono";
import type { TokenEvent } from "../sampling/batch-sampler.ts";
import { type ParsedToolCall, parseToolCalls } from "../tokenizer/chat-template.ts";
import { badRequest, invalidBody } from "./api-error.ts";
import { chatPrompt } from "./chat-prompt.ts";
import { eventStream } from "./event-stream.ts";
import type { Generated } from "./generation-scheduler.ts";
import { samplingParamsOf } from "./request-sampling.ts";
import { ChatCompletionRequest } from "./request-schemas.ts";
import { checkModel, generateChoices, type RouteContext } from "./route-context.ts";
import { TextStream } from "./text-stream.ts";
import { logprobEntries } from "./token-logprobs.ts";

/** An OpenAI tool call of an answer. */
interface WireToolCall {
  index?: number;
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** Answers one chat-completions request; generation stops when the client goes away. */
export async function chatCompletions(c: Context, body: unknown, ctx: RouteContext): Promise<Response> {
  const parsed = ChatCompletionRequest.safeParse(body);
  if (!parsed.success) throw invalidBody(parsed.error, "chat completion request");
  const request = parsed.data;
  checkModel(request.model, ctx);
  const toolChoice = request.tool_choice ?? "auto";
  if (toolChoice !== "auto" && toolChoice !== "none") {
    throw badRequest(
      `tool_choice ${JSON.stringify(toolChoice)} is not supported by this engine (it cannot force a call): use "auto" or "none"`,
      "tool_choice",
    );
  }
  if (request.response_format && request.response_format.type !== "text") {
    throw badRequest(
      `response_format "${request.response_format.type}" is not supported by this engine: remove it`,
      "response_format",
    );
  }
  const tools = toolChoice === "none" ? [] : (request.tools ?? []);
  const prompt = chatPrompt(request.messages, tools, request.add_generation_prompt ?? true);
  const params = samplingParamsOf(request, prompt.length, ctx.config, ctx.defaults);
  const n = request.n ?? 1;
  const wantLogprobs = request.logprobs === true;
  const topLogprobs = wantLogprobs ? (request.top_logprobs ?? 0) : 0;
  const returnTokens = request.return_token_ids === true || wantLogprobs;
  const id = `chatcmpl-${randomBytes(12).toString("hex")}`;
  const created = Math.floor(Date.now() / 1000);
  const head = { id, created, model: ctx.modelName };
  const signal = c.req.raw.signal;

  if (request.stream !== true) {
    const generated = await generateChoices(ctx, prompt, params, n, { topLogprobs, signal });
    return c.json({
      ...head,
      object: "chat.completion",
      choices: generated.map((g, index) => {
        const { content, toolCalls } =
          tools.length > 0 ? parseToolCalls(g.sequence.text) : { content: g.sequence.text, toolCalls: [] };
        return {
          index,
          message: {
            role: "assistant",
            content: toolCalls.length > 0 && content.trim() === "" ? null : content,
            ...(toolCalls.length > 0 ? { tool_calls: wireToolCalls(toolCalls) } : {}),
          },
          logprobs: wantLogprobs
            ? { content: logprobEntries(g.sequence.tokens, g.sequence.logprobs, g.top) }
            : null,
          finish_reason: toolCalls.length > 0 ? "tool_calls" : g.sequence.finishReason,
          stop_reason: g.sequence.stopReason,
          ...(returnTokens ? { token_ids: g.sequence.tokens } : {}),
        };
      }),
      usage: usage(prompt.length, generated),
      ...(returnTokens ? { prompt_token_ids: prompt } : {}),
    });
  }

  // streamed: one chunk per token and choice, then a usage chunk, then [DONE]
  return eventStream(c, async (events) => {
    const chunk = (choice: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      events.send({ ...head, object: "chat.completion.chunk", choices: [choice], ...extra });
    for (let index = 0; index < n; index++) {
      chunk(
        { index, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null },
        returnTokens && index === 0 ? { prompt_token_ids: prompt } : {},
      );
    }
    const streams = Array.from({ length: n }, () => new TextStream(params.stop, tools.length > 0));
    const onToken = (index: number, event: TokenEvent): void => {
      const stream = streams[index]!;
      let content = stream.push(event.token);
      let toolCalls: ParsedToolCall[] = [];
      if (event.finish !== null) {
        const { stopReason } = event.finish;
        const end = stream.finish(
          typeof stopReason === "string" ? new TextEncoder().encode(stopReason).length : 0,
        );
        content += end.content;
        toolCalls = end.toolCalls;
      }
      if (content === "" && event.finish === null && !wantLogprobs && !returnTokens) return;
      const delta: Record<string, unknown> = content !== "" ? { content } : {};
      if (toolCalls.length > 0)
        delta.tool_calls = wireToolCalls(toolCalls).map((call, i) => ({ ...call, index: i }));
      chunk({
        index,
        delta,
        logprobs: wantLogprobs
          ? { content: logprobEntries([event.token], [event.logprob], [event.top]) }
          : null,
        finish_reason:
          event.finish === null ? null : toolCalls.length > 0 ? "tool_calls" : event.finish.reason,
        ...(event.finish !== null ? { stop_reason: event.finish.stopReason } : {}),
        ...(returnTokens ? { token_ids: [event.token] } : {}),
      });
    };
    const generated = await generateChoices(ctx, prompt, params, n, { topLogprobs, signal, onToken });
    if (request.stream_options?.include_usage !== false) {
      events.send({
        ...head,
        object: "chat.completion.chunk",
        choices: [],
        usage: usage(prompt.length, generated),
      });
    }
    await events.done();
  });
}

function wireToolCalls(calls: readonly ParsedToolCall[]): WireToolCall[] {
  return calls.map((call) => ({
    id: `call_${randomBytes(8).toString("hex")}`,
    type: "function",
    function: { name: call.name, arguments: call.arguments },
  }));
}

/** OpenAI's usage block: the prompt counts once, completion tokens over every choice. */
export function usage(
  promptTokens: number,
  generated: readonly Generated[],
): { prompt_tokens: number; completion_tokens: number; total_tokens: number } {
  const completion = generated.reduce((sum, g) => sum + g.sequence.tokens.length, 0);
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completion,
    total_tokens: promptTokens + completion,
  };
}
