/**
 * POST /v1/completions: raw text completion over the engine, whole or streamed. A text prompt is
 * encoded byte by byte after `<|bos|>`, with special-token names in it (`<|user|>`, ...) read as
 * the special tokens; a token-id prompt is used as it is. Choice j of prompt i has index i·n + j.
 * With `return_token_ids` (or `logprobs`), each choice carries vLLM's `prompt_token_ids` and
 * `token_ids`. With vLLM's `prompt_logprobs`, each choice also carries the scores of its prompt's
 * tokens, from one forward pass over the prompt (a frozen teacher scoring a student's samples sends
 * the sample as a token-id prompt with `max_tokens` 1, as vLLM needs at least one new token).
 */
import { randomBytes } from "node:crypto";
import type { Context } from "hono";
import type { ModelConfig } from "../config.ts";
import type { TokenEvent } from "../sampling/batch-sampler.ts";
import { tokenizer } from "../tokenizer/tokenizer.ts";
import { badRequest, contextLengthExceeded, invalidBody } from "./api-error.ts";
import { usage } from "./chat-completions.ts";
import { eventStream } from "./event-stream.ts";
import { samplingParamsOf } from "./request-sampling.ts";
import { CompletionRequest } from "./request-schemas.ts";
import { checkModel, generateChoices, type RouteContext } from "./route-context.ts";
import { TextStream } from "./text-stream.ts";
import { legacyLogprobs, promptLogprobs } from "./token-logprobs.ts";

/** Answers one completions request; generation stops when the client goes away. */
export async function completions(c: Context, body: unknown, ctx: RouteContext): Promise<Response> {
  const parsed = CompletionRequest.safeParse(body);
  if (!parsed.success) throw invalidBody(parsed.error, "completion request");
  const request = parsed.data;
  checkModel(request.model, ctx);
  if (request.echo) throw badRequest("echo is not supported by this engine: remove it", "echo");
  if (request.suffix) throw badRequest("suffix is not supported by this engine: remove it", "suffix");
  if (request.prompt_logprobs != null && request.stream === true) {
    throw badRequest(
      "prompt_logprobs is not supported when streaming: remove stream or prompt_logprobs",
      "stream",
    );
  }
  const prompts = promptTokens(request.prompt, ctx.config);
  const paramsList = prompts.map((p) => samplingParamsOf(request, p.length, ctx.config, ctx.defaults));
  const n = request.n ?? 1;
  const wantLogprobs = request.logprobs !== null && request.logprobs !== undefined;
  const topLogprobs = request.logprobs ?? 0;
  const returnTokens = request.return_token_ids === true || wantLogprobs;
  const head = { id: `cmpl-${randomBytes(12).toString("hex")}`, created: Math.floor(Date.now() / 1000) };
  const promptCount = prompts.reduce((sum, p) => sum + p.length, 0);
  const signal = c.req.raw.signal;

  if (request.stream !== true) {
    const promptScores =
      request.prompt_logprobs == null
        ? null
        : await Promise.all(prompts.map((p) => ctx.scheduler.score(p, request.prompt_logprobs!)));
    const generated = await Promise.all(
      prompts.map((prompt, i) => generateChoices(ctx, prompt, paramsList[i]!, n, { topLogprobs, signal })),
    );
    return c.json({
      ...head,
      object: "text_completion",
      model: ctx.modelName,
      choices: generated.flatMap((choices, i) =>
        choices.map((g, j) => ({
          index: i * n + j,
          text: g.sequence.text,
          logprobs: wantLogprobs
            ? legacyLogprobs(g.sequence.tokens, g.sequence.logprobs, g.top, topLogprobs > 0)
            : null,
          finish_reason: g.sequence.finishReason,
          stop_reason: g.sequence.stopReason,
          ...(returnTokens ? { prompt_token_ids: prompts[i], token_ids: g.sequence.tokens } : {}),
          ...(promptScores ? { prompt_logprobs: promptLogprobs(promptScores[i]!) } : {}),
        })),
      ),
      usage: usage(promptCount, generated.flat()),
    });
  }

  return eventStream(c, async (events) => {
    const onToken = (i: number) => {
      const streams = Array.from({ length: n }, () => new TextStream(paramsList[i]!.stop, false));
      return (j: number, event: TokenEvent): void => {
        let text = streams[j]!.push(event.token);
        if (event.finish !== null) {
          const { stopReason } = event.finish;
          text += streams[j]!.finish(
            typeof stopReason === "string" ? new TextEncoder().encode(stopReason).length : 0,
          ).content;
        }
        if (text === "" && event.finish === null && !wantLogprobs && !returnTokens) return;
        events.send({
          ...head,
          object: "text_completion",
          model: ctx.modelName,
          choices: [
            {
              index: i * n + j,
              text,
              logprobs: wantLogprobs
                ? legacyLogprobs([event.token], [event.logprob], [event.top], topLogprobs > 0)
                : null,
              finish_reason: event.finish?.reason ?? null,
              ...(event.finish !== null ? { stop_reason: event.finish.stopReason } : {}),
              ...(returnTokens ? { token_ids: [event.token] } : {}),
            },
          ],
        });
      };
    };
    const generated = await Promise.all(
      prompts.map((prompt, i) =>
        generateChoices(ctx, prompt, paramsList[i]!, n, { topLogprobs, signal, onToken: onToken(i) }),
      ),
    );
    if (request.stream_options?.include_usage !== false) {
      events.send({
        ...head,
        object: "text_completion",
        model: ctx.modelName,
        choices: [],
        usage: usage(promptCount, generated.flat()),
      });
    }
    await events.done();
  });
}

/** The token ids of each prompt, checked against the vocabulary and the context. */
function promptTokens(prompt: CompletionRequest["prompt"], config: ModelConfig): number[][] {
  const list: (string | number[])[] =
    typeof prompt === "string"
      ? [prompt]
      : typeof prompt[0] === "number"
        ? [prompt as number[]]
        : (prompt as (string | number[])[]);
  return list.map((p, i) => {
    let ids: number[];
    if (typeof p === "string") {
      ids = tokenizer.encode(p, { allowSpecial: true });
      if (ids[0] !== tokenizer.bos) ids.unshift(tokenizer.bos);
    } else {
      ids = p;
      const bad = ids.find((id) => id >= config.vocabSize);
      if (bad !== undefined) {
        throw badRequest(
          `prompt ${i}: token id ${bad} is outside the vocabulary of ${config.vocabSize}: use this model's token ids`,
          "prompt",
        );
      }
    }
    if (ids.length > config.maxSeqLen) throw contextLengthExceeded(ids.length, config.maxSeqLen);
    return ids;
  });
}
