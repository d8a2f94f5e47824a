import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { OpenAIModelClient } from "../client/openai-model-client.ts";
import type { Messages } from "../messages/message.ts";
import {
  byPrompt,
  fixedReply,
  lastUserText,
  type ScriptedServerOptions,
  startScriptedServer,
} from "./index.ts";
import { echoLastUser, sequence } from "./scripted-reply.ts";

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((resource) => resource.close()));
});

async function serve(options: ScriptedServerOptions = {}) {
  const server = await startScriptedServer(options);
  const client = new OpenAIModelClient({ baseUrl: server.url, apiKey: "EMPTY", maxRetries: 0 });
  opened.push(client, server);
  return { server, client };
}

async function post(
  url: string,
  body: string,
): Promise<{ status: number; json: { error: { message: string } } }> {
  const response = await fetch(`${url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  return { status: response.status, json: (await response.json()) as { error: { message: string } } };
}

describe("startScriptedServer", () => {
  it("listens on loopback with a /v1 URL and lists its models", async () => {
    const { server } = await serve({ models: ["tiny", "small"] });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const models = (await (await fetch(`${server.url}/models`)).json()) as { data: Array<{ id: string }> };
    expect(models.data.map((model) => model.id)).toEqual(["tiny", "small"]);
  });

  it("echoes the last user message by default and records the bodies", async () => {
    const { server, client } = await serve();
    const response = await client.chat({
      model: "any",
      messages: [{ role: "user", content: [{ type: "text", text: "hello" }] }],
      sampling: { temperature: 0 },
    });
    expect(response.message.content).toBe("hello");
    expect(server.requests).toEqual([
      {
        model: "any",
        messages: [{ role: "user", content: [{ type: "text", text: "hello" }] }],
        temperature: 0,
      },
    ]);
  });

  it("returns prompt token ids that extend across turns (prefix-monotonic)", async () => {
    const { client } = await serve({
      tokens: true,
      reply: sequence([
        { type: "message", content: "Let me add.", toolCalls: [{ name: "add", arguments: { a: 2, b: 2 } }] },
        { type: "message", content: "4", reasoningContent: "the tool said 4" },
      ]),
    });
    const prompt: Messages = [
      { role: "system", content: "Use tools." },
      { role: "user", content: "2+2? ünïcode" },
    ];
    const first = await client.chat({ model: "m", messages: prompt, sampling: {} });
    const history: Messages = [
      ...prompt,
      first.message,
      { role: "tool", content: "4", tool_call_id: first.message.tool_calls![0]!.id },
    ];
    const second = await client.chat({ model: "m", messages: history, sampling: {} });
    const firstTurn = [...first.tokens!.promptIds, ...first.tokens!.completionIds];
    expect(second.tokens!.promptIds.slice(0, firstTurn.length)).toEqual(firstTurn);
    expect(second.tokens!.promptIds.length).toBeGreaterThan(firstTurn.length);
    expect(second.tokens!.completionLogprobs).toHaveLength(second.tokens!.completionIds.length);
  });

  it("counts usage the same whether or not token ids are returned", async () => {
    const { client } = await serve({ reply: fixedReply("four") });
    const messages: Messages = [{ role: "user", content: "2+2?" }];
    const plain = await client.chat({ model: "m", messages, sampling: {} });
    const withTokens = await client.chat({ model: "m", messages, sampling: { logprobs: true } });
    expect(plain.tokens).toBeNull();
    expect(plain.usage).toEqual(withTokens.usage);
    expect(withTokens.usage).toEqual({
      promptTokens: withTokens.tokens!.promptIds.length,
      completionTokens: withTokens.tokens!.completionIds.length,
    });
  });

  it("streams SSE chunks that the openai package reassembles", async () => {
    const { server } = await serve({
      reply: () => ({
        type: "message",
        content: "two plus two is four",
        toolCalls: [{ name: "note", arguments: "{}" }],
      }),
    });
    const sdk = new OpenAI({ baseURL: server.url, apiKey: "EMPTY" });
    const stream = await sdk.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "2+2?" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let content = "";
    let finish: string | null = null;
    let usage: unknown = null;
    const toolNames: string[] = [];
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      content += choice?.delta.content ?? "";
      for (const call of choice?.delta.tool_calls ?? []) toolNames.push(call.function?.name ?? "");
      finish = choice?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(content).toBe("two plus two is four");
    expect(toolNames).toEqual(["note"]);
    expect(finish).toBe("tool_calls");
    expect(usage).toMatchObject({ prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) });
  });

  it("rejects bad requests with OpenAI-shaped errors", async () => {
    const { server } = await serve();
    const messages = [{ role: "user", content: "hi" }];
    expect(await post(server.url, "{nope")).toMatchObject({ status: 400 });
    const several = await post(server.url, JSON.stringify({ model: "m", messages, n: 2 }));
    expect(several.status).toBe(400);
    expect(several.json.error.message).toContain("n=1 only");
    const route = await fetch(`${server.url}/embeddings`, { method: "POST", body: "{}" });
    expect(route.status).toBe(404);
    expect(server.requests).toHaveLength(0);
  });

  it("answers 500 with the message when the reply script throws", async () => {
    const { server } = await serve({
      reply: () => {
        throw new Error("script bug");
      },
    });
    const response = await post(
      server.url,
      JSON.stringify({ model: "m", messages: [{ role: "user", content: "x" }] }),
    );
    expect(response.status).toBe(500);
    expect(response.json.error.message).toBe("the reply script threw: script bug");
  });

  it("waits latencySeconds before answering, per request when it is a function", async () => {
    const { client } = await serve({
      latencySeconds: (request) => (lastUserText(request.messages) === "slow" ? 3 : 0),
    });
    let started = Date.now();
    await client.chat({ model: "m", messages: [{ role: "user", content: "slow" }], sampling: {} });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2990);
    started = Date.now();
    await client.chat({ model: "m", messages: [{ role: "user", content: "fast" }], sampling: {} });
    expect(Date.now() - started).toBeLessThan(2990);
  });

  it("keeps no bodies when record is false", async () => {
    const { server, client } = await serve({ record: false });
    await client.chat({ model: "m", messages: [{ role: "user", content: "x" }], sampling: {} });
    expect(server.requests).toEqual([]);
  });
});

describe("the scripted server's other APIs", () => {
  const anthropic = (url: string, headers: Record<string, string>, body: unknown) =>
    fetch(`${url.replace(/\/v1$/, "")}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  const hello = { model: "m", max_tokens: 16, messages: [{ role: "user", content: "hello" }] };

  it("answers Anthropic's wire format: x-api-key, anthropic-version, its error shape", async () => {
    const server = await startScriptedServer({ apiKey: "sk-ant" });
    opened.push(server);
    const ok = await anthropic(
      server.url,
      { "x-api-key": "sk-ant", "anthropic-version": "2023-06-01" },
      hello,
    );
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({
      type: "message",
      role: "assistant",
      content: [{ type: "text", text: "hello" }],
      stop_reason: "end_turn",
      usage: { input_tokens: expect.any(Number), output_tokens: expect.any(Number) },
    });
    const wrongKey = await anthropic(
      server.url,
      { "x-api-key": "nope", "anthropic-version": "2023-06-01" },
      hello,
    );
    expect(wrongKey.status).toBe(401);
    expect(await wrongKey.json()).toEqual({
      type: "error",
      error: { type: "authentication_error", message: "Incorrect API key provided." },
    });
    const noVersion = await anthropic(server.url, { "x-api-key": "sk-ant" }, hello);
    expect(noVersion.status).toBe(400);
    expect(await noVersion.json()).toMatchObject({
      error: { message: "anthropic-version: header is required" },
    });
    const noMax = await anthropic(
      server.url,
      { "x-api-key": "sk-ant", "anthropic-version": "2023-06-01" },
      { ...hello, max_tokens: undefined },
    );
    expect(noMax.status).toBe(400);
    expect(server.apis).toEqual(["anthropic_messages"]);
  });

  it("checks the key on GET /v1/models, sent either way", async () => {
    const server = await startScriptedServer({ apiKey: "k" });
    opened.push(server);
    expect((await fetch(`${server.url}/models`)).status).toBe(401);
    expect((await fetch(`${server.url}/models`, { headers: { authorization: "Bearer k" } })).status).toBe(
      200,
    );
    expect((await fetch(`${server.url}/models`, { headers: { "x-api-key": "k" } })).status).toBe(200);
  });

  it("streams Responses and Anthropic Messages events that the SDKs reassemble", async () => {
    const server = await startScriptedServer({
      reply: () => ({
        type: "message",
        content: "two plus two is four",
        reasoningContent: "add",
        toolCalls: [{ name: "note", arguments: { text: "4" } }],
      }),
    });
    opened.push(server);
    const openai = new OpenAI({ baseURL: server.url, apiKey: "EMPTY" });
    const response = await openai.responses.stream({ model: "m", input: "2+2?" }).finalResponse();
    expect(response.output.find((item) => item.type === "message")).toMatchObject({
      content: [{ type: "output_text", text: "two plus two is four" }],
    });
    expect(response.output.find((item) => item.type === "function_call")).toMatchObject({
      name: "note",
      arguments: '{"text":"4"}',
    });
    const { default: Anthropic } = await import("@anthropic-ai/sdk");
    const anthropic = new Anthropic({ baseURL: server.url.replace(/\/v1$/, ""), apiKey: "EMPTY" });
    const message = await anthropic.messages
      .stream({ model: "m", max_tokens: 64, messages: [{ role: "user", content: "2+2?" }] })
      .finalMessage();
    expect(message.content).toEqual([
      { type: "thinking", thinking: "add", signature: "vf" },
      { type: "text", text: "two plus two is four" },
      { type: "tool_use", id: "call_1_0", name: "note", input: { text: "4" } },
    ]);
    expect(message.stop_reason).toBe("tool_use");
    expect(message.usage.output_tokens).toBeGreaterThan(0);
    expect(server.apis).toEqual(["openai_responses", "anthropic_messages"]);
  });

  it("answers a reply with tool calls on /v1/completions with a 500 saying why", async () => {
    const server = await startScriptedServer({
      reply: () => ({ type: "message", toolCalls: [{ name: "f", arguments: {} }] }),
    });
    opened.push(server);
    const response = await fetch(`${server.url}/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "m", prompt: "x" }),
    });
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /cannot be sent over \/v1\/completions: the reply has tool calls/,
    );
  });
});

describe("reply scripts", () => {
  const request = (text: string) => ({ model: "m", messages: [{ role: "user" as const, content: text }] });

  it("sequence answers in order, then repeats its last reply", () => {
    const script = sequence(["a", { type: "empty" }, "c"]);
    expect([0, 1, 2, 3].map((i) => script(request("x"), i))).toEqual(["a", { type: "empty" }, "c", "c"]);
  });

  it("byPrompt answers from the messages", async () => {
    const script = byPrompt((messages) => (lastUserText(messages).includes("2+2") ? "4" : "?"));
    expect(await script(request("what is 2+2"), 0)).toBe("4");
    expect(await script(request("hi"), 1)).toBe("?");
  });

  it("echoLastUser says so when there is no user message", () => {
    expect(echoLastUser({ model: "m", messages: [{ role: "system", content: "s" }] }, 0)).toBe(
      "(no user message)",
    );
  });
});

describe("scripted-server-main", () => {
  it("serves in its own process and prints its URL", async () => {
    const main = fileURLToPath(new URL("./scripted-server-main.ts", import.meta.url));
    const child = spawn(
      process.execPath,
      ["--conditions=vf-source", "--import", "tsx", main, "--reply", "fixed:from another process"],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.once("data", (data: Buffer) => resolve(data.toString().trim()));
        child.once("exit", (code) => reject(new Error(`scripted-server-main exited with ${code}`)));
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const client = new OpenAIModelClient({ baseUrl: url, apiKey: "EMPTY" });
      opened.push(client);
      const response = await client.chat({
        model: "m",
        messages: [{ role: "user", content: "hi" }],
        sampling: {},
      });
      expect(response.message.content).toBe("from another process");
    } finally {
      child.kill("SIGTERM");
    }
  });
});
