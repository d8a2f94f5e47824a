/**
 * `ModelClient` over the OpenAI chat-completions HTTP API, through the official `openai` package:
 * OpenAI, OpenRouter, vLLM, SGLang, llama.cpp, Ollama, vf's engine, the scripted test server.
 * One instance per endpoint holds one SDK client and one keep-alive connection pool; share it
 * across rollouts. Retries are ours, not the SDK's: its retry sleep ignores the abort signal, its
 * first delay is fixed, and it retries refused connections, which should fail fast.
 */
import OpenAI from "openai";
import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import { Agent } from "undici";
import { CancelledError, UserError } from "../errors.ts";
import { toModelResponse } from "./chat-response.ts";
import { type CallContext, classifyFailure } from "./model-call-failure.ts";
import type { ChatCallOptions, ChatRequest, ModelClient, ModelResponse } from "./model-client.ts";
import { pooledFetch } from "./pooled-fetch.ts";
import { requestSignal } from "./request-signal.ts";
import { backoffMs, sleep } from "./retry-backoff.ts";

/** How to reach one endpoint and how hard to try. */
export interface OpenAIModelClientOptions {
  /** Base URL of the API, usually ending in /v1 (e.g. http://127.0.0.1:8000/v1). */
  baseUrl: string;
  /** The key value sent as a bearer token; "EMPTY" for local servers that ignore it. */
  apiKey: string;
  /** Name of the variable the key came from, so a rejected key can be traced (messages only). */
  apiKeyVar?: string;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** Retries after the first attempt on 429, 5xx and dropped connections; default 3. */
  maxRetries?: number;
  /** First backoff delay in ms, doubled each retry with jitter; default 500. */
  retryDelayMs?: number;
  /** Cap on one backoff delay in ms; default 8000. */
  maxRetryDelayMs?: number;
  /** Whole-request timeout in ms; default 3,600,000 (one hour, for long generations). */
  timeoutMs?: number;
  /** TCP connect timeout in ms; default 5000. */
  connectTimeoutMs?: number;
}

const DEFAULTS = {
  headers: {} as Record<string, string>,
  maxRetries: 3,
  retryDelayMs: 500,
  maxRetryDelayMs: 8000,
  timeoutMs: 3_600_000,
  connectTimeoutMs: 5000,
};

/**
 * A model endpoint spoken to over the OpenAI chat-completions API.
 *
 * @example
 * const client = new OpenAIModelClient({ baseUrl: "http://127.0.0.1:8000/v1", apiKey: "EMPTY" });
 * const response = await client.chat({ model: "Qwen/Qwen3-0.6B", messages, sampling: { max_tokens: 256 } });
 * await client.close();
 */
export class OpenAIModelClient implements ModelClient {
  readonly baseUrl: string;
  /** The chat-completions URL, as named in error messages. */
  readonly chatUrl: string;
  private readonly options: Required<Omit<OpenAIModelClientOptions, "apiKeyVar">> & { apiKeyVar?: string };
  private readonly agent: Agent;
  private readonly sdk: OpenAI;

  constructor(options: OpenAIModelClientOptions) {
    // `??` rather than a spread, so that a key present but undefined still gets its default.
    this.options = {
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      apiKeyVar: options.apiKeyVar,
      headers: options.headers ?? DEFAULTS.headers,
      maxRetries: options.maxRetries ?? DEFAULTS.maxRetries,
      retryDelayMs: options.retryDelayMs ?? DEFAULTS.retryDelayMs,
      maxRetryDelayMs: options.maxRetryDelayMs ?? DEFAULTS.maxRetryDelayMs,
      timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
      connectTimeoutMs: options.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs,
    } satisfies OpenAIModelClientOptions;
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.chatUrl = `${this.baseUrl}/chat/completions`;
    // undici's own timeouts (300 s for headers and body) would cut long generations short; the
    // SDK's timeout covers the whole request instead.
    this.agent = new Agent({
      connect: { timeout: this.options.connectTimeoutMs },
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    this.sdk = new OpenAI({
      baseURL: this.baseUrl,
      apiKey: this.options.apiKey,
      defaultHeaders: this.options.headers,
      maxRetries: 0,
      timeout: this.options.timeoutMs,
      fetch: pooledFetch(this.agent),
    });
  }

  /** Sends one chat request; retries transient failures, then throws the typed errors of errors.ts. */
  async chat(request: ChatRequest, options: ChatCallOptions = {}): Promise<ModelResponse> {
    const body = requestBody(request);
    const signal = options.signal;
    const context: CallContext = {
      url: this.chatUrl,
      model: request.model,
      apiKeyVar: this.options.apiKeyVar,
      timeoutMs: this.options.timeoutMs,
      signal,
    };
    const backoff = { initialMs: this.options.retryDelayMs, maxMs: this.options.maxRetryDelayMs };
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw new CancelledError(`model call to ${this.chatUrl} cancelled`);
      let raw: unknown;
      const link = requestSignal(signal);
      try {
        raw = await this.sdk.chat.completions.create(body, link.signal ? { signal: link.signal } : undefined);
      } catch (error) {
        const failure = classifyFailure(error, context);
        if (!failure.retry || attempt >= this.options.maxRetries) throw failure.error;
        await sleep(backoffMs(attempt, backoff, failure.retryAfterMs), signal);
        continue;
      } finally {
        link.release();
      }
      return toModelResponse(raw, this.chatUrl);
    }
  }

  /** Closes the connection pool. Calls after this fail. */
  async close(): Promise<void> {
    await this.agent.close();
  }
}

/**
 * The request body: sampling args spread in as given (unknown keys such as top_k, min_p or
 * repetition_penalty go to the server untouched), `extra_body` merged into the top level as the
 * Python SDK does, tools only when there are some.
 */
export function requestBody(request: ChatRequest): ChatCompletionCreateParamsNonStreaming {
  const { extra_body: extraBody, ...sampling } = request.sampling;
  if (sampling.stream !== undefined && sampling.stream !== false) {
    throw new UserError('sampling arg "stream" is not supported: vf reads whole responses; remove it');
  }
  if (
    extraBody !== undefined &&
    (typeof extraBody !== "object" || extraBody === null || Array.isArray(extraBody))
  ) {
    throw new UserError(
      `sampling arg "extra_body" must be an object of extra request fields, got ${JSON.stringify(extraBody)}: fix -S/[sampling]`,
    );
  }
  const body: Record<string, unknown> = {
    ...sampling,
    ...(extraBody as Record<string, unknown> | undefined),
    model: request.model,
    messages: request.messages,
  };
  if (request.tools && request.tools.length > 0) body.tools = request.tools;
  return body as unknown as ChatCompletionCreateParamsNonStreaming;
}
