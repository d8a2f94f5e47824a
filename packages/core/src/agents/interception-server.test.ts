// The interception server speaking each agent's API with the real SDKs on the agent side (the
// openai package over chat completions and Responses, @anthropic-ai/sdk over Messages, whole and
// streamed), the scripted model behind it reached through core's model clients with vLLM's tokens.
import type Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { byPrompt } from "../testing/index.ts";
import { ADD_TOOL, anthropicAgent, openaiAgent, pathTokens, setup } from "./interception-test-support.ts";

describe("the interception server", () => {
  it("round-trips a tool call over chat completions, whole then streamed, and traces both calls with tokens", async () => {
    const { register } = await setup();
    const rollout = register();
    const agent = openaiAgent(rollout);
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "What is 2+2?" }];
    const first = await agent.chat.completions.create({ model: "scripted", messages, tools: [ADD_TOOL] });
    const call = first.choices[0]!.message.tool_calls![0]!;
    expect(call).toMatchObject({ type: "function", function: { name: "add", arguments: '{"a":2,"b":2}' } });
    messages.push(first.choices[0]!.message, { role: "tool", tool_call_id: call.id, content: "4" });
    const stream = await agent.chat.completions.create({
      model: "scripted",
      messages,
      tools: [ADD_TOOL],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    expect(text).toBe("the sum is 4");

    const trace = await rollout.end({ exitCode: 0 });
    expect(trace.stop).toBe("agent_completed");
    expect(trace.calls.map((c) => [c.api, c.stream, c.finishReason])).toEqual([
      ["openai_chat_completions", false, "tool_calls"],
      ["openai_chat_completions", true, "stop"],
    ]);
    const [one, two] = trace.calls;
    expect(two!.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(two!.tools).toEqual([ADD_TOOL]);
    expect(two!.reply).toMatchObject({ role: "assistant", content: "the sum is 4" });
    for (const c of [one!, two!]) {
      expect(c.tokens!.completionLogprobs).toHaveLength(c.tokens!.completionIds.length);
      expect(c.usage!.completionTokens).toBe(c.tokens!.completionIds.length);
      expect(pathTokens(trace.nodes, c.node!)).toEqual([...c.tokens!.promptIds, ...c.tokens!.completionIds]);
    }
    // One branch: the second turn extends the first.
    expect(trace.nodes.map((n) => n.parent)).toEqual([null, 0, 1, 2]);
    expect(trace.nodes.filter((n) => n.sampled)).toHaveLength(2);
  });

  it("speaks Responses, whole and streamed, as Codex does", async () => {
    const { register } = await setup();
    const rollout = register();
    const { baseUrl, apiKey } = rollout.endpoint("openai_responses");
    const agent = new OpenAI({ baseURL: baseUrl, apiKey, maxRetries: 0 });
    const tools: OpenAI.Responses.FunctionTool[] = [
      { type: "function", name: "add", parameters: ADD_TOOL.function.parameters, strict: false },
    ];
    const first = await agent.responses.create({
      model: "scripted",
      instructions: "Add.",
      input: "2+2?",
      tools,
    });
    const call = first.output.find((item) => item.type === "function_call")!;
    expect(call).toMatchObject({ name: "add", arguments: '{"a":2,"b":2}' });
    const final = await agent.responses
      .stream({
        model: "scripted",
        instructions: "Add.",
        input: [
          { role: "user", content: "2+2?" },
          ...first.output.filter((item) => item.type === "function_call"),
          { type: "function_call_output", call_id: call.call_id, output: "4" },
        ],
        tools,
      })
      .finalResponse();
    expect(final.output).toMatchObject([
      { type: "message", content: [{ type: "output_text", text: "the sum is 4" }] },
    ]);
    const trace = rollout.trace();
    expect(trace.calls.map((c) => [c.api, c.stream])).toEqual([
      ["openai_responses", false],
      ["openai_responses", true],
    ]);
    expect(trace.calls[1]!.messages).toEqual([
      { role: "system", content: "Add." },
      { role: "user", content: "2+2?" },
      { role: "assistant", content: null, tool_calls: [expect.objectContaining({ id: call.call_id })] },
      { role: "tool", tool_call_id: call.call_id, content: "4" },
    ]);
    expect(trace.calls[1]!.tokens).not.toBeNull();
  });

  it("offers Codex's namespaced MCP tools to the model, says its call back under them, and traces what it left out", async () => {
    const { model, register } = await setup({
      reply: byPrompt((_messages, request) => {
        const echo = request.tools?.find((tool) => tool.function.name.endsWith("echo"));
        return {
          type: "message",
          content: "",
          toolCalls: [{ name: echo!.function.name, arguments: { text: "hi" } }],
        };
      }),
    });
    const rollout = register();
    const { baseUrl, apiKey } = rollout.endpoint("openai_responses");
    const agent = new OpenAI({ baseURL: baseUrl, apiKey, maxRetries: 0 });
    const tools = [
      {
        type: "namespace",
        name: "mcp__vf_0",
        description: "Tools in the mcp__vf_0 namespace.",
        tools: [{ type: "function", name: "echo", parameters: { type: "object", properties: {} } }],
      },
      { type: "web_search" },
    ] as unknown as OpenAI.Responses.Tool[];
    const answer = await agent.responses.create({ model: "scripted", input: "Echo hi.", tools });
    expect(answer.output).toMatchObject([
      { type: "function_call", name: "echo", namespace: "mcp__vf_0", arguments: '{"text":"hi"}' },
    ]);
    expect(model.requests[0]!.tools?.map((tool) => tool.function.name)).toEqual(["mcp__vf_0__echo"]);
    const [call] = rollout.trace().calls;
    expect(call!.tools.map((tool) => tool.function.name)).toEqual(["mcp__vf_0__echo"]);
    expect(call!.dropped).toEqual([
      `tool "web_search" (web_search): a hosted tool, run by OpenAI's servers, with no function form to offer the model`,
    ]);
  });

  it("speaks Anthropic Messages, whole and streamed, with count_tokens and the model list, as Claude Code does", async () => {
    const { register } = await setup();
    const rollout = register({ servedModel: "claude-sonnet-vf" });
    const agent = anthropicAgent(rollout);
    const tools: Anthropic.Tool[] = [
      { name: "add", description: "Add two numbers.", input_schema: { type: "object", properties: {} } },
    ];
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "2+2?" }];
    const first = await agent.messages.create({
      model: "claude-sonnet-vf",
      max_tokens: 256,
      system: "Add.",
      messages,
      tools,
    });
    expect(first.stop_reason).toBe("tool_use");
    const use = first.content.find((block) => block.type === "tool_use")!;
    expect(use).toMatchObject({ name: "add", input: { a: 2, b: 2 } });
    messages.push(
      { role: "assistant", content: first.content },
      { role: "user", content: [{ type: "tool_result", tool_use_id: use.id, content: "4" }] },
    );
    const final = await agent.messages
      .stream({ model: "claude-sonnet-vf", max_tokens: 256, system: "Add.", messages, tools })
      .finalMessage();
    expect(final.content).toEqual([{ type: "text", text: "the sum is 4" }]);
    expect(final.stop_reason).toBe("end_turn");
    const count = await agent.messages.countTokens({ model: "claude-sonnet-vf", messages });
    expect(count.input_tokens).toBeGreaterThan(0);
    const models = await agent.models.list();
    expect(models.data.map((m) => m.id)).toEqual(["claude-sonnet-vf"]);

    const trace = rollout.trace();
    expect(trace.calls).toHaveLength(2);
    expect(trace.calls[1]).toMatchObject({
      api: "anthropic_messages",
      stream: true,
      model: "claude-sonnet-vf",
    });
    expect(trace.calls[1]!.sampling).toEqual({ max_tokens: 256 });
    expect(trace.calls[1]!.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
  });
});
