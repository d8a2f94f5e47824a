/**
 * `evaluate` against a scripted model, in one call: the loopback server is started for the run and
 * closed after it, so an environment's test says only what the model answers and what it expects.
 *
 * @example
 * const env = await loadEnvironment({});
 * const result = await evaluateScripted(env, { reply: await referenceReplies(env) });
 * expect(result.metadata.avg_reward).toBe(1);
 */
import { OpenAIModelClient } from "../client/openai-model-client.ts";
import type { Environment } from "../envs/environment.ts";
import { type EvaluateOptions, type EvaluateResult, evaluate } from "../generate/evaluate.ts";
import { fixedReply, type ReplyFn, type ScriptedRequest } from "./scripted-reply.ts";
import { startScriptedServer } from "./scripted-server.ts";

/** `evaluate`'s options without the model, plus how the scripted model answers. */
export interface EvaluateScriptedOptions extends Omit<EvaluateOptions, "clients" | "model"> {
  /** Every request's answer: a fixed text, or a function of the request. */
  reply: ReplyFn | string;
  /** The model name sent in requests and saved in the results; default "scripted". */
  model?: string;
}

/** What `evaluate` returns, with every request the scripted model received. */
export interface EvaluateScriptedResult extends EvaluateResult {
  requests: ScriptedRequest[];
}

/** Evaluates `env` with a scripted model on loopback; the server lives for this call only. */
export async function evaluateScripted<Data>(
  env: Environment<Data>,
  options: EvaluateScriptedOptions,
): Promise<EvaluateScriptedResult> {
  const { reply, model = "scripted", ...rest } = options;
  const server = await startScriptedServer({ reply: typeof reply === "string" ? fixedReply(reply) : reply });
  try {
    const clients = new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY", maxRetries: 0 });
    const result = await evaluate(env, { ...rest, clients, model });
    return { ...result, requests: server.requests };
  } finally {
    await server.close();
  }
}
