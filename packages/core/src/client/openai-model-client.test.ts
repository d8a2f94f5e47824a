import { afterEach, describe, expect, it } from "vitest";
import {
  CancelledError,
  EmptyModelResponseError,
  EndpointUnreachableError,
  InfraError,
  InvalidModelResponseError,
  ModelHttpError,
  OverlongPromptError,
  UserError,
} from "../errors.ts";
import type { ScriptedServerOptions } from "../testing/index.ts";
import { sequence } from "../testing/scripted-reply.ts";
import { IM_END } from "../testing/scripted-tokens.ts";
import { ApiKeyRejectedError, ModelNotFoundError, QuotaExhaustedError } from "./fatal-model-error.ts";
import type { ModelClientOptions } from "./model-client-options.ts";
import { OpenAIModelClient } from "./openai-model-client.ts";
import { clientOnScriptedServer, messages } from "./test-support.ts";

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((resource) => resource.close()));
});

const setup = (serverOptions: ScriptedServerOptions, clientOptions: Partial<ModelClientOptions> = {}) =>
  clientOnScriptedServer((options) => new OpenAIModelClient(options), opened, serverOptions, clientOptions);

describe("OpenAIModelClient", () => {
  it("answers with the assistant message, finish reason and usage", async () => {
    const { client } = await setup({ reply: () => "4" });
    const response = await client.chat({ model: "scripted", messages, sampling: {} });
    expect(response.message).toEqual({ role: "assistant", content: "4" });
    expect(response.finishReason).toBe("stop");
    expect(response.usage.completionTokens).toBeGreaterThan(0);
    expect(response.usage.promptTokens).toBeGreaterThan(response.usage.completionTokens);
    expect(response.tokens).toBeNull();
  });

  it("passes sampling args through untouched and merges extra_body into the body", async () => {
    const { client, server } = await setup({});
    const args = {
      max_tokens: 64,
      temperature: 0.7,
      top_p: 0.9,
      top_k: 20,
      min_p: 0.05,
      repetition_penalty: 1.1,
      logprobs: true,
    };
    await client.chat({
      model: "scripted",
      messages,
      sampling: {
        ...args,
        extra_body: { return_token_ids: true, chat_template_kwargs: { enable_thinking: false } },
      },
    });
    expect(server.requests[0]).toEqual({
      model: "scripted",
      messages,
      ...args,
      return_token_ids: true,
      chat_template_kwargs: { enable_thinking: false },
    });
  });

  it("sends tools only when there are some, and sends the endpoint's headers", async () => {
    const { client, server } = await setup({}, { headers: { "X-Session-ID": "abc" } });
    const tool = {
      type: "function" as const,
      function: { name: "add", description: "Add.", parameters: { type: "object", properties: {} } },
    };
    await client.chat({ model: "scripted", messages, tools: [], sampling: {} });
    await client.chat({ model: "scripted", messages, tools: [tool], sampling: {} });
    expect(server.requests[0]).not.toHaveProperty("tools");
    expect(server.requests[1]!.tools).toEqual([tool]);
    expect(server.headers[0]!["x-session-id"]).toBe("abc");
    expect(server.headers[0]!.authorization).toBe("Bearer EMPTY");
  });

  it("returns tool calls, and accepts a tool call with no content", async () => {
    const { client } = await setup({
      reply: () => ({
        type: "message",
        toolCalls: [{ id: "call_1", name: "add", arguments: { a: 2, b: 2 } }],
      }),
    });
    const response = await client.chat({ model: "scripted", messages, sampling: {} });
    expect(response.finishReason).toBe("tool_calls");
    expect(response.message.content).toBeNull();
    expect(response.message.tool_calls).toEqual([
      { id: "call_1", type: "function", function: { name: "add", arguments: '{"a":2,"b":2}' } },
    ]);
  });

  it("keeps reasoning_content beside the content", async () => {
    const { client } = await setup({
      reply: () => ({ type: "message", content: "4", reasoningContent: "2+2 is 4" }),
    });
    const response = await client.chat({ model: "scripted", messages, sampling: {} });
    expect(response.message).toEqual({ role: "assistant", content: "4", reasoning_content: "2+2 is 4" });
  });

  it("captures vLLM's prompt ids, completion ids and logprobs when asked", async () => {
    const { client } = await setup({ reply: () => "4" });
    const response = await client.chat({
      model: "scripted",
      messages,
      sampling: { logprobs: true, extra_body: { return_token_ids: true } },
    });
    const tokens = response.tokens!;
    expect(tokens.completionIds).toEqual([52, IM_END]); // "4" then <|im_end|>
    expect(tokens.completionLogprobs).toHaveLength(2);
    expect(tokens.completionLogprobs.every((logprob) => logprob < 0)).toBe(true);
    expect(tokens.promptIds.length).toBe(response.usage.promptTokens);
  });

  it("retries a connection dropped halfway through the body", async () => {
    const { client, server } = await setup({ reply: sequence([{ type: "drop", midBody: true }, "4"]) });
    const response = await client.chat({ model: "scripted", messages, sampling: {} });
    expect(response.message.content).toBe("4");
    expect(server.requests).toHaveLength(2);
  });

  it("gives up after timeoutSeconds with an InfraError saying what to raise", async () => {
    // The answer would take a minute: ending well before it shows the timeout ended the call.
    const { client } = await setup({ latencySeconds: 60 }, { timeoutSeconds: 0.1 });
    const started = Date.now();
    const error = await client.chat({ model: "scripted", messages, sampling: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InfraError);
    expect((error as Error).message).toContain("timed out after 0.1 s: raise timeoutSeconds");
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it("throws ModelHttpError with the status once retries run out", async () => {
    const { client, server } = await setup(
      { reply: () => ({ type: "error", status: 503, message: "overloaded" }) },
      { maxRetries: 2 },
    );
    const error = await client.chat({ model: "scripted", messages, sampling: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelHttpError);
    expect((error as ModelHttpError).status).toBe(503);
    expect((error as Error).message).toContain("overloaded");
    expect(server.requests).toHaveLength(3);
  });

  it("retries 3 times by default, even when options name maxRetries as undefined", async () => {
    const { client, server } = await setup(
      { reply: () => ({ type: "error", status: 500, message: "down" }) },
      { maxRetries: undefined },
    );
    await expect(client.chat({ model: "scripted", messages, sampling: {} })).rejects.toBeInstanceOf(
      ModelHttpError,
    );
    expect(server.requests).toHaveLength(4);
  });

  it("throws EndpointUnreachableError once dropped connections exhaust the retries", async () => {
    const { client, server } = await setup({ reply: () => ({ type: "drop" }) }, { maxRetries: 1 });
    await expect(client.chat({ model: "scripted", messages, sampling: {} })).rejects.toBeInstanceOf(
      EndpointUnreachableError,
    );
    expect(server.requests).toHaveLength(2);
  });

  it("throws InvalidModelResponseError naming the URL for a body that is not JSON", async () => {
    const { client } = await setup({
      reply: () => ({ type: "garbage", body: "<html>502 Bad Gateway</html>" }),
    });
    const error = await client.chat({ model: "scripted", messages, sampling: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidModelResponseError);
    expect((error as Error).message).toContain(`${client.chatUrl}`);
  });

  it("throws InvalidModelResponseError for a text body and for JSON of the wrong shape", async () => {
    const { client } = await setup({
      reply: sequence([
        { type: "garbage", body: "hello", contentType: "text/plain" },
        { type: "garbage", body: JSON.stringify({ choices: [{ message: { content: 42 } }] }) },
      ]),
    });
    const text = await client.chat({ model: "scripted", messages, sampling: {} }).catch((e: unknown) => e);
    expect(text).toBeInstanceOf(InvalidModelResponseError);
    expect((text as Error).message).toContain('"hello"');
    const shape = await client.chat({ model: "scripted", messages, sampling: {} }).catch((e: unknown) => e);
    expect(shape).toBeInstanceOf(InvalidModelResponseError);
    expect((shape as Error).message).toContain("message.content");
  });

  it("throws InvalidModelResponseError for more than one choice", async () => {
    const choice = { index: 0, message: { role: "assistant", content: "4" }, finish_reason: "stop" };
    const { client } = await setup({
      reply: () => ({ type: "garbage", body: JSON.stringify({ id: "x", choices: [choice, choice] }) }),
    });
    const error = await client.chat({ model: "scripted", messages, sampling: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidModelResponseError);
    expect(error).not.toBeInstanceOf(EmptyModelResponseError);
    expect((error as Error).message).toContain("2 choices");
  });

  it("throws EmptyModelResponseError for no choices and for an empty message", async () => {
    const { client } = await setup({
      reply: sequence([{ type: "empty" }, { type: "message", content: "", finishReason: "length" }]),
    });
    await expect(client.chat({ model: "scripted", messages, sampling: {} })).rejects.toBeInstanceOf(
      EmptyModelResponseError,
    );
    const error = await client.chat({ model: "scripted", messages, sampling: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmptyModelResponseError);
    expect((error as Error).message).toContain("raise max_tokens");
  });

  it.each([
    "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.",
    "context_length_exceeded",
    "prompt is too long: 210000 tokens > 200000 maximum",
  ])("throws OverlongPromptError for a 400 saying %s", async (message) => {
    const { client, server } = await setup({ reply: () => ({ type: "error", status: 400, message }) });
    const error = await client.chat({ model: "scripted", messages, sampling: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OverlongPromptError);
    expect((error as Error).message).toContain("shorten the prompt");
    expect(server.requests).toHaveLength(1);
  });

  it("reads the message of a flat vLLM/SGLang error body", async () => {
    const { client } = await setup({
      reply: () => ({
        type: "error",
        status: 400,
        format: "flat",
        message: "This model's maximum context length is 2048 tokens. However, you requested 3000 tokens.",
      }),
    });
    const error = await client.chat({ model: "scripted", messages, sampling: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OverlongPromptError);
    expect((error as Error).message).toContain("maximum context length is 2048 tokens");
  });

  it("throws a user error naming the key variable when the key is rejected", async () => {
    const { client } = await setup({ apiKey: "right" }, { apiKey: "wrong", apiKeyVar: "MY_API_KEY" });
    const error = await client.chat({ model: "scripted", messages, sampling: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiKeyRejectedError);
    expect(error).toBeInstanceOf(UserError);
    expect((error as ApiKeyRejectedError).status).toBe(401);
    expect((error as Error).message).toContain("MY_API_KEY");
    expect((error as Error).message).toContain("Incorrect API key provided.");
  });

  it("does not retry a spent quota (429 insufficient_quota) and keeps the server's message", async () => {
    const message = "You exceeded your current quota, please check your plan and billing details.";
    const { client, server } = await setup(
      { reply: () => ({ type: "error", status: 429, message, code: "insufficient_quota" }) },
      { maxRetries: 3 },
    );
    const error = await client.chat({ model: "scripted", messages, sampling: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaExhaustedError);
    expect((error as Error).message).toContain(message);
    expect(server.requests).toHaveLength(1);
  });

  it("throws a user error naming the model and endpoint for an unknown model", async () => {
    const { client, server } = await setup({ models: ["qwen"] });
    const error = await client.chat({ model: "llama", messages, sampling: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelNotFoundError);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toContain('model "llama"');
    expect((error as Error).message).toContain(server.url);
  });

  it("stops promptly with CancelledError when aborted while waiting to retry", async () => {
    const { client } = await setup(
      { reply: () => ({ type: "error", status: 429, message: "slow down" }) },
      // The retry would wait a minute: ending well before it shows the abort ended the wait.
      { retryDelaySeconds: 60, maxRetryDelaySeconds: 60 },
    );
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 100);
    const error = await client
      .chat({ model: "scripted", messages, sampling: {} }, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it("rejects stream and a non-object extra_body with a user error", async () => {
    const { client } = await setup({});
    await expect(client.chat({ model: "scripted", messages, sampling: { stream: true } })).rejects.toThrow(
      /"stream" is not supported/,
    );
    await expect(client.chat({ model: "scripted", messages, sampling: { extra_body: "x" } })).rejects.toThrow(
      /"extra_body" must be an object/,
    );
  });

  it("serves many concurrent calls over one client", async () => {
    const { client, server } = await setup({ latencySeconds: 0.02 });
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        client.chat({ model: "scripted", messages: [{ role: "user", content: `q${i}` }], sampling: {} }),
      ),
    );
    expect(answers.map((a) => a.message.content)).toEqual(Array.from({ length: 200 }, (_, i) => `q${i}`));
    expect(server.requests).toHaveLength(200);
  });
});
