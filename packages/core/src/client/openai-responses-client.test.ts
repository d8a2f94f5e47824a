// What only the Responses API does: input items (function_call / function_call_output by call_id),
// flattened function tools that stay non-strict, max_output_tokens and reasoning.effort, and the
// status of an incomplete or failed response. The shared behaviour is in model-clients.contract.test.ts.
import { afterEach, describe, expect, it } from "vitest";
import { InvalidModelResponseError } from "../errors.ts";
import type { Messages } from "../messages/message.ts";
import { type ScriptedServerOptions, startScriptedServer } from "../testing/index.ts";
import { OpenAIResponsesClient } from "./openai-responses-client.ts";

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((resource) => resource.close()));
});

async function setup(options: ScriptedServerOptions = {}) {
  const server = await startScriptedServer(options);
  const client = new OpenAIResponsesClient({ baseUrl: server.url, apiKey: "EMPTY", maxRetries: 0 });
  opened.push(client, server);
  return { server, client };
}

describe("OpenAIResponsesClient", () => {
  it("sends the conversation as input items and the tools as function tools", async () => {
    const { client, server } = await setup({});
    const conversation: Messages = [
      { role: "system", content: "Use tools." },
      { role: "user", content: [{ type: "text", text: "2+2?" }] },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "add", arguments: '{"a":2,"b":2}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "4" },
    ];
    const tool = {
      type: "function" as const,
      function: { name: "add", description: "Add.", parameters: { type: "object", properties: {} } },
    };
    await client.chat({
      model: "gpt",
      messages: conversation,
      tools: [tool],
      sampling: { max_tokens: 50, reasoning_effort: "low", temperature: 1 },
    });
    expect(server.bodies[0]).toEqual({
      model: "gpt",
      max_output_tokens: 50,
      temperature: 1,
      reasoning: { effort: "low" },
      input: [
        { type: "message", role: "system", content: "Use tools." },
        { type: "message", role: "user", content: [{ type: "input_text", text: "2+2?" }] },
        { type: "function_call", call_id: "call_1", name: "add", arguments: '{"a":2,"b":2}' },
        { type: "function_call_output", call_id: "call_1", output: "4" },
      ],
      tools: [
        {
          type: "function",
          name: "add",
          description: "Add.",
          parameters: tool.function.parameters,
          strict: false,
        },
      ],
    });
  });

  it("reads an output cut by the token limit as length, and a failed response as invalid", async () => {
    const { client } = await setup({
      reply: (_request, index) =>
        index === 0
          ? { type: "message", content: "partial", finishReason: "length" }
          : {
              type: "garbage",
              body: JSON.stringify({
                id: "resp_2",
                status: "failed",
                error: { code: "server_error", message: "the model crashed" },
                output: [],
              }),
            },
    });
    const messages: Messages = [{ role: "user", content: "x" }];
    const cut = await client.chat({ model: "gpt", messages, sampling: {} });
    expect(cut.finishReason).toBe("length");
    expect(cut.message.content).toBe("partial");
    const error = await client.chat({ model: "gpt", messages, sampling: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidModelResponseError);
    expect((error as Error).message).toContain("server_error: the model crashed");
  });
});
