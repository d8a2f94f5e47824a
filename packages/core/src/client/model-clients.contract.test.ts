// One contract for every model client: each API's client, against the scripted server speaking that
// API, answers, calls tools, reports usage and stop reasons, retries and fails with the same typed
// errors. What only one API does is in that client's own test file.
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  CancelledError,
  EmptyModelResponseError,
  EndpointUnreachableError,
  InvalidModelResponseError,
  ModelHttpError,
  OverlongPromptError,
  UserError,
} from "../errors.ts";
import type { Messages } from "../messages/message.ts";
import type { ScriptedServerOptions } from "../testing/index.ts";
import { sequence } from "../testing/scripted-reply.ts";
import { ApiClientType } from "./client-type.ts";
import { createModelClient, type HttpModelClient } from "./create-model-client.ts";
import { ApiKeyRejectedError, ModelNotFoundError } from "./fatal-model-error.ts";
import type { ModelClientOptions } from "./model-client-options.ts";
import { clientOnScriptedServer, messages } from "./test-support.ts";

const add = {
  type: "function" as const,
  function: {
    name: "add",
    description: "Add two numbers.",
    parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
  },
};

/** Where each API keeps the token limit that -t sets. */
const TOKEN_LIMIT: Record<ApiClientType, string> = {
  openai_chat_completions: "max_tokens",
  openai_completions: "max_tokens",
  openai_responses: "max_output_tokens",
  anthropic_messages: "max_tokens",
};

/** Where each API's requests go under a base URL ending in /v1. */
const REQUEST_PATH: Record<ApiClientType, string> = {
  openai_chat_completions: "/chat/completions",
  openai_completions: "/completions",
  openai_responses: "/responses",
  anthropic_messages: "/messages",
};

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((resource) => resource.close()));
});

async function closedPortUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}/v1`;
}

describe.each(ApiClientType.options)("%s client", (type) => {
  const hasTools = type !== "openai_completions";

  const setup = (serverOptions: ScriptedServerOptions, clientOptions: Partial<ModelClientOptions> = {}) =>
    clientOnScriptedServer(
      (options) => createModelClient({ type, ...options }),
      opened,
      serverOptions,
      clientOptions,
    );

  const failureOf = (client: HttpModelClient, model = "scripted") =>
    client.chat({ model, messages, sampling: {} }).catch((e: unknown) => e);

  it("answers with the assistant message, a stop finish reason and usage, over its own API", async () => {
    const { client, server } = await setup({ reply: () => "4" });
    const response = await client.chat({ model: "scripted", messages, sampling: { max_tokens: 32 } });
    expect(response.message).toEqual({ role: "assistant", content: "4" });
    expect(response.finishReason).toBe("stop");
    expect(response.usage.completionTokens).toBeGreaterThan(0);
    expect(response.usage.promptTokens).toBeGreaterThan(response.usage.completionTokens);
    expect(response.tokens).toBeNull();
    expect(server.apis).toEqual([type]);
    expect(server.bodies[0]![TOKEN_LIMIT[type]]).toBe(32);
    expect(server.requests[0]!.model).toBe("scripted");
  });

  it('says "length" when the token limit cut the answer', async () => {
    const { client } = await setup({
      reply: () => ({ type: "message", content: "2 plus", finishReason: "length" }),
    });
    const response = await client.chat({ model: "scripted", messages, sampling: {} });
    expect(response.finishReason).toBe("length");
    expect(response.message.content).toBe("2 plus");
  });

  it.runIf(hasTools)("calls tools and reads the results back by call id", async () => {
    const { client, server } = await setup({
      reply: sequence([
        { type: "message", toolCalls: [{ id: "call_7", name: "add", arguments: { a: 2, b: 2 } }] },
        { type: "message", content: "4", reasoningContent: "the tool said 4" },
      ]),
    });
    const first = await client.chat({ model: "scripted", messages, tools: [add], sampling: {} });
    expect(first.finishReason).toBe("tool_calls");
    expect(first.message.content).toBeNull();
    expect(first.message.tool_calls).toEqual([
      { id: "call_7", type: "function", function: { name: "add", arguments: '{"a":2,"b":2}' } },
    ]);
    const history: Messages = [
      ...messages,
      first.message,
      { role: "tool", content: "4", tool_call_id: "call_7" },
    ];
    const second = await client.chat({ model: "scripted", messages: history, tools: [add], sampling: {} });
    expect(second.message).toEqual({ role: "assistant", content: "4", reasoning_content: "the tool said 4" });
    // The server saw the same conversation and tools, whatever the wire format.
    expect(server.requests[0]!.tools).toEqual([add]);
    expect(server.requests[1]!.messages).toEqual([
      ...messages,
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_7", type: "function", function: { name: "add", arguments: '{"a":2,"b":2}' } },
        ],
      },
      { role: "tool", content: "4", tool_call_id: "call_7" },
    ]);
  });

  it.runIf(!hasTools)("refuses tools with a user error naming the APIs that have them", async () => {
    const { client, server } = await setup({});
    await expect(client.chat({ model: "scripted", messages, tools: [add], sampling: {} })).rejects.toThrow(
      /the completions API has no tools, and this environment offers add: use the client type openai_chat_completions/,
    );
    expect(server.requests).toHaveLength(0);
  });

  it("sends the endpoint's headers and each request's own", async () => {
    const { client, server } = await setup({}, { headers: { "X-Team": "rl" } });
    await client.chat(
      { model: "scripted", messages, sampling: {} },
      { headers: { "X-Session-ID": "traj-1" } },
    );
    await client.chat(
      { model: "scripted", messages, sampling: {} },
      { headers: { "X-Session-ID": "traj-2" } },
    );
    expect(server.headers.map((h) => [h["x-team"], h["x-session-id"]])).toEqual([
      ["rl", "traj-1"],
      ["rl", "traj-2"],
    ]);
  });

  it("retries 429, 500 and a dropped connection, then succeeds", async () => {
    const { client, server } = await setup({
      reply: sequence([
        { type: "error", status: 429, message: "slow down" },
        { type: "error", status: 500, message: "boom" },
        { type: "drop" },
        "4",
      ]),
    });
    const response = await client.chat({ model: "scripted", messages, sampling: {} });
    expect(response.message.content).toBe("4");
    expect(server.requests).toHaveLength(4);
  });

  it("throws ModelHttpError with the status and the server's message once retries run out", async () => {
    const { client, server } = await setup(
      { reply: () => ({ type: "error", status: 503, message: "warming up" }) },
      { maxRetries: 1 },
    );
    const error = await failureOf(client);
    expect(error).toBeInstanceOf(ModelHttpError);
    expect((error as ModelHttpError).status).toBe(503);
    expect((error as Error).message).toContain("(warming up)");
    expect(server.requests).toHaveLength(2);
  });

  it("does not retry a bad request, and names its status", async () => {
    const { client, server } = await setup({
      reply: () => ({ type: "error", status: 400, message: "temperature must be at most 2" }),
    });
    const error = await failureOf(client);
    expect(error).toBeInstanceOf(ModelHttpError);
    expect((error as Error).message).toMatch(/answered HTTP 400 \(temperature must be at most 2\)/);
    expect(server.requests).toHaveLength(1);
  });

  it("throws OverlongPromptError for a prompt over the context", async () => {
    const { client } = await setup({
      reply: () => ({
        type: "error",
        status: 400,
        message: "prompt is too long: 250000 tokens > 200000 maximum",
      }),
    });
    const error = await failureOf(client);
    expect(error).toBeInstanceOf(OverlongPromptError);
    expect((error as Error).message).toContain("250000 tokens > 200000 maximum");
  });

  it("throws a user error naming the key variable when the key is rejected", async () => {
    const { client } = await setup({ apiKey: "right" }, { apiKey: "wrong", apiKeyVar: "MY_API_KEY" });
    const error = await failureOf(client);
    expect(error).toBeInstanceOf(ApiKeyRejectedError);
    expect((error as ApiKeyRejectedError).status).toBe(401);
    expect((error as Error).message).toContain("check the key in MY_API_KEY");
    await expect(client.preflight()).rejects.toBeInstanceOf(ApiKeyRejectedError);
  });

  it("sends the key (a bearer token, from both SDKs) and passes the preflight with it", async () => {
    const { client, server } = await setup({ apiKey: "sk-right" }, { apiKey: "sk-right" });
    await client.preflight();
    await client.chat({ model: "scripted", messages, sampling: {} });
    expect(server.headers[0]!.authorization).toBe("Bearer sk-right");
  });

  it("throws a user error naming the model for an unknown model", async () => {
    const { client } = await setup({ models: ["qwen"] });
    const error = await failureOf(client, "llama");
    expect(error).toBeInstanceOf(ModelNotFoundError);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toContain('model "llama"');
  });

  it("throws InvalidModelResponseError for a body that is not JSON or not this API's shape", async () => {
    const garbage = await setup({ reply: () => ({ type: "garbage", body: "<html>oops</html>" }) });
    expect(await failureOf(garbage.client)).toBeInstanceOf(InvalidModelResponseError);
    const wrong = await setup({
      reply: () => ({ type: "garbage", body: '{"choices": 5, "content": 5, "output": 5}' }),
    });
    const error = await failureOf(wrong.client);
    expect(error).toBeInstanceOf(InvalidModelResponseError);
    expect((error as Error).message).toContain(wrong.server.url.replace(/\/v1$/, ""));
  });

  it("throws EmptyModelResponseError for an answer with nothing in it", async () => {
    const { client } = await setup({ reply: () => ({ type: "empty" }) });
    expect(await failureOf(client)).toBeInstanceOf(EmptyModelResponseError);
  });

  it("fails fast with EndpointUnreachableError naming the URL when nothing listens, in the call and the preflight", async () => {
    const url = await closedPortUrl();
    const client = createModelClient({ type, baseUrl: url, apiKey: "EMPTY", retryDelaySeconds: 0.005 });
    opened.push(client);
    const started = Date.now();
    const error = await failureOf(client);
    expect(error).toBeInstanceOf(EndpointUnreachableError);
    expect((error as Error).message).toContain(`${url}${REQUEST_PATH[type]}`);
    expect((error as Error).message).toContain("check that the server is running");
    // A hang (waiting on a connect timeout) would take far longer than this.
    expect(Date.now() - started).toBeLessThan(20_000);
    await expect(client.preflight()).rejects.toBeInstanceOf(EndpointUnreachableError);
  });

  it("stops promptly with CancelledError when aborted during a call", async () => {
    // The answer would take a minute: ending well before it shows the abort ended the call.
    const { client } = await setup({ latencySeconds: 60 });
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 50);
    const error = await client
      .chat({ model: "scripted", messages, sampling: {} }, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it("refuses stream and several choices with a user error", async () => {
    const { client } = await setup({});
    await expect(client.chat({ model: "scripted", messages, sampling: { stream: true } })).rejects.toThrow(
      /"stream" is not supported/,
    );
    if (type !== "openai_chat_completions") {
      await expect(client.chat({ model: "scripted", messages, sampling: { n: 2 } })).rejects.toThrow(
        /sampling arg "n" is 2/,
      );
    }
  });
});

describe("createModelClient", () => {
  it("gives each type's client, with the type it speaks", () => {
    for (const type of ApiClientType.options) {
      const client = createModelClient({ type, baseUrl: "http://127.0.0.1:9/v1", apiKey: "EMPTY" });
      opened.push(client);
      expect((client as unknown as { type: string }).type).toBe(type);
    }
  });
});
