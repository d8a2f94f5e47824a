import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tokenizer } from "../tokenizer/tokenizer.ts";
import { chatPrompt } from "./chat-prompt.ts";
import { type EngineServer, startEngineServer } from "./engine-server.ts";
import { RequestMessage, RequestTool } from "./request-schemas.ts";
import { memorizedCheckpoint, vllmChat } from "./test-support.ts";

const tools: OpenAI.ChatCompletionFunctionTool[] = [
  {
    type: "function",
    function: {
      name: "add",
      description: "Adds two numbers.",
      parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
    },
  },
];
const question: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "What is 2 + 3?" }];
const call = '<tool_call>{"name":"add","arguments":{"a":2,"b":3}}</tool_call>';
const afterResult: OpenAI.ChatCompletionMessageParam[] = [
  ...question,
  {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "c1", type: "function", function: { name: "add", arguments: '{"a":2,"b":3}' } }],
  },
  { role: "tool", tool_call_id: "c1", content: "5" },
];

/** The prompt tokens the server renders for these messages and tools. */
const promptOf = (messages: OpenAI.ChatCompletionMessageParam[]): number[] =>
  chatPrompt(RequestMessage.array().parse(messages), RequestTool.array().parse(tools), true);

let server: EngineServer;
let client: OpenAI;

beforeAll(async () => {
  // a model that learned this one exchange by heart: call add, then answer with its result
  const checkpoint = await memorizedCheckpoint([
    { prompt: promptOf(question), completion: [...tokenizer.encode(call), tokenizer.eot] },
    {
      prompt: promptOf(afterResult),
      completion: [...tokenizer.encode("It is 5."), tokenizer.eot],
    },
  ]);
  server = await startEngineServer({ checkpoint, modelName: "tiny" });
  client = new OpenAI({ baseURL: server.url, apiKey: "EMPTY", maxRetries: 0 });
  // Memorizing takes seconds on a quiet machine; the bound is for a machine several jobs share.
}, 300_000);
afterAll(() => server?.close());

describe("tool calls through the engine server", () => {
  it("renders the tools into the system turn", () => {
    const text = tokenizer.decode(promptOf(question));
    expect(text).toContain("<|system|># Tools\n");
    expect(text).toContain('{"name":"add","description":"Adds two numbers.","parameters":');
    const withSystem = tokenizer.decode(promptOf([{ role: "system", content: "Be brief." }, ...question]));
    expect(withSystem).toContain("<|system|>Be brief.\n\n# Tools\n");
  });

  it("parses the model's <tool_call> into tool_calls, and takes the result back in one prefix-monotonic sequence", async () => {
    const first = await vllmChat(client, {
      model: "tiny",
      messages: question,
      tools,
      temperature: 0,
      return_token_ids: true,
    });
    const choice = first.choices[0]!;
    expect(choice.finish_reason).toBe("tool_calls");
    expect(choice.message.content).toBeNull();
    const toolCall = choice.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
    expect(toolCall.function).toEqual({ name: "add", arguments: '{"a":2,"b":3}' });

    const second = await vllmChat(client, {
      model: "tiny",
      messages: [...question, choice.message, { role: "tool", tool_call_id: toolCall.id, content: "5" }],
      tools,
      temperature: 0,
      return_token_ids: true,
    });
    expect(second.choices[0]!.message.content).toBe("It is 5.");
    expect(second.choices[0]!.finish_reason).toBe("stop");
    const firstTurn = [...first.prompt_token_ids!, ...choice.token_ids!];
    expect(second.prompt_token_ids!.slice(0, firstTurn.length)).toEqual(firstTurn);
  });

  it("streams tool calls as a delta at the end", async () => {
    const stream = await client.chat.completions.create({
      model: "tiny",
      messages: question,
      tools,
      temperature: 0,
      stream: true,
    });
    let content = "";
    const calls: OpenAI.ChatCompletionChunk.Choice.Delta.ToolCall[] = [];
    let finish: string | null = null;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (!choice) continue;
      content += choice.delta.content ?? "";
      calls.push(...(choice.delta.tool_calls ?? []));
      finish ??= choice.finish_reason;
    }
    expect(content).toBe("");
    expect(calls.map((c) => c.function)).toEqual([{ name: "add", arguments: '{"a":2,"b":3}' }]);
    expect(finish).toBe("tool_calls");
  });

  it('leaves the text alone with tool_choice "none"', async () => {
    const response = await client.chat.completions.create({
      model: "tiny",
      messages: question,
      tools,
      tool_choice: "none",
      temperature: 0,
      max_tokens: 30,
    });
    expect(response.choices[0]!.message.tool_calls ?? []).toEqual([]);
    expect(response.choices[0]!.finish_reason).not.toBe("tool_calls");
  });
});
