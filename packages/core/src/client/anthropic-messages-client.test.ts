// What only Anthropic's Messages API does: the system prompt apart, tool calls and results as
// tool_use/tool_result blocks, max_tokens always sent, stop as stop_sequences, a host base URL, cached
// input counted in the prompt tokens, and 529 "overloaded" retried. The shared behaviour of every
// client is in model-clients.contract.test.ts.
import { afterEach, describe, expect, it } from "vitest";
import type { Messages } from "../messages/message.ts";
import { type ScriptedServerOptions, startScriptedServer } from "../testing/index.ts";
import { sequence } from "../testing/scripted-reply.ts";
import { ANTHROPIC_DEFAULT_MAX_TOKENS, AnthropicMessagesClient } from "./anthropic-messages-client.ts";

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((resource) => resource.close()));
});

async function setup(options: ScriptedServerOptions = {}) {
  const server = await startScriptedServer(options);
  const client = new AnthropicMessagesClient({
    baseUrl: server.url,
    apiKey: "EMPTY",
    retryDelaySeconds: 0.005,
  });
  opened.push(client, server);
  return { server, client };
}

const calc = {
  type: "function" as const,
  function: {
    name: "calculate",
    description: "Evaluate an arithmetic expression.",
    parameters: { type: "object", properties: { expression: { type: "string" } }, required: ["expression"] },
  },
};

describe("AnthropicMessagesClient", () => {
  it("sends the system prompt apart and tool calls and results as blocks", async () => {
    const { client, server } = await setup({ reply: () => "42" });
    const conversation: Messages = [
      { role: "system", content: "Use the calculator." },
      { role: "user", content: "What is 6*7 and 1+1?" },
      {
        role: "assistant",
        content: "Calculating.",
        tool_calls: [
          {
            id: "toolu_1",
            type: "function",
            function: { name: "calculate", arguments: '{"expression":"6*7"}' },
          },
          {
            id: "toolu_2",
            type: "function",
            function: { name: "calculate", arguments: '{"expression":"1+1"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "toolu_1", content: "42" },
      { role: "tool", tool_call_id: "toolu_2", content: "2" },
    ];
    await client.chat({ model: "claude", messages: conversation, tools: [calc], sampling: {} });
    expect(server.bodies[0]).toEqual({
      model: "claude",
      max_tokens: ANTHROPIC_DEFAULT_MAX_TOKENS,
      system: "Use the calculator.",
      messages: [
        { role: "user", content: "What is 6*7 and 1+1?" },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Calculating." },
            { type: "tool_use", id: "toolu_1", name: "calculate", input: { expression: "6*7" } },
            { type: "tool_use", id: "toolu_2", name: "calculate", input: { expression: "1+1" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "toolu_1", content: "42" },
            { type: "tool_result", tool_use_id: "toolu_2", content: "2" },
          ],
        },
      ],
      tools: [
        {
          name: "calculate",
          description: "Evaluate an arithmetic expression.",
          input_schema: calc.function.parameters,
        },
      ],
    });
    expect(server.headers[0]!["anthropic-version"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("maps -t, stop and several system messages to Anthropic's fields", async () => {
    const { client, server } = await setup({});
    await client.chat({
      model: "claude",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "system", content: "Answer in French." },
        { role: "user", content: "hi" },
      ],
      sampling: { max_completion_tokens: 64, temperature: 0.2, stop: "###", top_k: 5 },
    });
    expect(server.bodies[0]).toMatchObject({
      max_tokens: 64,
      temperature: 0.2,
      top_k: 5,
      stop_sequences: ["###"],
      system: "Be brief.\n\nAnswer in French.",
    });
    expect(server.bodies[0]).not.toHaveProperty("stop");
    expect(server.bodies[0]).not.toHaveProperty("max_completion_tokens");
  });

  it("takes the host as base URL, with or without /v1", async () => {
    const { server } = await setup({ reply: () => "ok" });
    const host = server.url.replace(/\/v1$/, "");
    for (const baseUrl of [host, server.url, `${server.url}/`]) {
      const client = new AnthropicMessagesClient({ baseUrl, apiKey: "EMPTY" });
      opened.push(client);
      expect(client.messagesUrl).toBe(`${host}/v1/messages`);
      const response = await client.chat({
        model: "claude",
        messages: [{ role: "user", content: "x" }],
        sampling: {},
      });
      expect(response.message.content).toBe("ok");
    }
  });

  it("retries 529 overloaded, and reads Anthropic's error bodies", async () => {
    const { client, server } = await setup({
      reply: sequence([{ type: "error", status: 529, message: "Overloaded" }, "fine"]),
    });
    const response = await client.chat({
      model: "claude",
      messages: [{ role: "user", content: "x" }],
      sampling: {},
    });
    expect(response.message.content).toBe("fine");
    expect(server.requests).toHaveLength(2);
  });

  it("maps the stop reasons and counts cached input in the prompt tokens", async () => {
    const body = (stop: string) => ({
      type: "garbage" as const,
      body: JSON.stringify({
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "claude",
        content: [{ type: "text", text: "x" }],
        stop_reason: stop,
        usage: {
          input_tokens: 10,
          output_tokens: 3,
          cache_read_input_tokens: 90,
          cache_creation_input_tokens: 5,
        },
      }),
    });
    const reasons = [
      "end_turn",
      "stop_sequence",
      "max_tokens",
      "model_context_window_exceeded",
      "refusal",
      "pause_turn",
    ];
    const { client } = await setup({ reply: sequence(reasons.map(body)) });
    const finishes: string[] = [];
    for (const _ of reasons) {
      const response = await client.chat({
        model: "claude",
        messages: [{ role: "user", content: "x" }],
        sampling: {},
      });
      finishes.push(response.finishReason);
      expect(response.usage).toEqual({ promptTokens: 105, completionTokens: 3 });
    }
    expect(finishes).toEqual(["stop", "stop", "length", "length", "content_filter", "other"]);
  });

  it("sends images as image blocks and refuses tool arguments that are not an object", async () => {
    const { client, server } = await setup({});
    await client.chat({
      model: "claude",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What is this?" },
            { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0K" } },
            { type: "image_url", image_url: { url: "https://example.com/cat.jpg" } },
          ],
        },
      ],
      sampling: {},
    });
    expect((server.bodies[0]!.messages as Array<{ content: unknown }>)[0]!.content).toEqual([
      { type: "text", text: "What is this?" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0K" } },
      { type: "image", source: { type: "url", url: "https://example.com/cat.jpg" } },
    ]);
    await expect(
      client.chat({
        model: "claude",
        messages: [
          { role: "user", content: "x" },
          {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "t", type: "function", function: { name: "f", arguments: "[1]" } }],
          },
          { role: "tool", tool_call_id: "t", content: "y" },
        ],
        sampling: {},
      }),
    ).rejects.toThrow(/tool call t \(f\) has arguments that are not a JSON object/);
  });
});
