// The interception server with real clients on the agent side (the openai package over chat
// completions and Responses, @anthropic-ai/sdk over Messages, whole and streamed) and the scripted
// model server behind it, reached through core's model clients with vLLM's token fields.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { createModelClient } from "../client/create-model-client.ts";
import type { Messages } from "../messages/message.ts";
import { contentText } from "../messages/message.ts";
import { byPrompt, type ScriptedServerOptions, startScriptedServer } from "../testing/index.ts";
import type { RolloutRegistration } from "./intercepted-rollout.ts";
import {
  type InterceptionServer,
  type InterceptionServerOptions,
  startInterceptionServer,
} from "./interception-server.ts";
import type { MessageNode } from "./message-graph.ts";

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((resource) => resource.close()));
});

/** The scripted model: calls `add` first, then answers with what the tool said. */
const addThenAnswer = byPrompt((messages) => {
  const last = messages[messages.length - 1]!;
  if (last.role === "tool") return `the sum is ${contentText(last.content)}`;
  return { type: "message", content: "Let me add.", toolCalls: [{ name: "add", arguments: { a: 2, b: 2 } }] };
});

const ADD_TOOL = {
  type: "function" as const,
  function: {
    name: "add",
    description: "Add two numbers.",
    parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
  },
};

/** A scripted model (with token ids) and an interception server in front of it. */
async function setup(scripted: ScriptedServerOptions = {}, options: InterceptionServerOptions = {}) {
  const model = await startScriptedServer({ tokens: true, reply: addThenAnswer, ...scripted });
  const client = createModelClient({
    type: "openai_chat_completions",
    baseUrl: model.url,
    apiKey: "EMPTY",
    maxRetries: 0,
  });
  const server = await startInterceptionServer(options);
  opened.push(server, client, model);
  const register = (options: Partial<RolloutRegistration> = {}) =>
    server.register({ client, model: "scripted", ...options });
  return { model, server, register };
}

function openaiAgent(rollout: ReturnType<InterceptionServer["register"]>) {
  const { baseUrl, apiKey } = rollout.endpoint("openai_chat_completions");
  return new OpenAI({ baseURL: baseUrl, apiKey, maxRetries: 0 });
}

function anthropicAgent(rollout: ReturnType<InterceptionServer["register"]>) {
  const { baseUrl, apiKey } = rollout.endpoint("anthropic_messages");
  return new Anthropic({ baseURL: baseUrl, apiKey, maxRetries: 0 });
}

/** The tokens of the path from the root to `node`: a turn's prompt and completion when it extends its branch. */
function pathTokens(nodes: MessageNode[], node: number): number[] {
  const path: number[] = [];
  for (let id: number | null = node; id !== null; id = nodes[id]!.parent) path.unshift(id);
  return path.flatMap((id) => nodes[id]!.token_ids);
}

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

  it("answers an unknown secret with 401 in the agent's dialect and records nothing", async () => {
    const { model, server, register } = await setup();
    const rollout = register();
    const stranger = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "vf-guessed", maxRetries: 0 });
    await expect(
      stranger.chat.completions.create({ model: "scripted", messages: [{ role: "user", content: "hi" }] }),
    ).rejects.toMatchObject({ status: 401 });
    const claude = new Anthropic({ baseURL: server.url, apiKey: "vf-guessed", maxRetries: 0 });
    await expect(
      claude.messages.create({ model: "m", max_tokens: 8, messages: [{ role: "user", content: "hi" }] }),
    ).rejects.toMatchObject({
      status: 401,
      error: { type: "error", error: { type: "authentication_error" } },
    });
    const noKey = await fetch(`${server.url}/v1/models`);
    expect(noKey.status).toBe(401);
    // An ended rollout's secret is refused too.
    const ended = register();
    await ended.end();
    await expect(
      openaiAgent(ended).chat.completions.create({
        model: "scripted",
        messages: [{ role: "user", content: "hi" }],
      }),
    ).rejects.toMatchObject({ status: 401 });
    expect(rollout.trace().calls).toEqual([]);
    expect((await ended.end()).calls).toEqual([]);
    expect(model.requests).toEqual([]);
  });

  it("keeps two rollouts' traces apart while they run at once", async () => {
    const { register } = await setup({
      reply: byPrompt((messages) => contentText(messages.at(-1)!.content)),
      latencySeconds: 0.05,
    });
    const alice = register();
    const bob = register();
    const talk = (rollout: typeof alice, name: string) =>
      Promise.all(
        [1, 2, 3].map((turn) =>
          openaiAgent(rollout).chat.completions.create({
            model: "scripted",
            messages: [{ role: "user", content: `${name} ${turn}` }],
          }),
        ),
      );
    await Promise.all([talk(alice, "alice"), talk(bob, "bob")]);
    const said = (rollout: typeof alice) =>
      rollout
        .trace()
        .calls.map((c) => contentText(c.reply!.content))
        .sort();
    expect(said(alice)).toEqual(["alice 1", "alice 2", "alice 3"]);
    expect(said(bob)).toEqual(["bob 1", "bob 2", "bob 3"]);
    // Three first turns that share nothing: three branches from three roots.
    expect(alice.trace().nodes.filter((n) => n.parent === null)).toHaveLength(3);
  });

  it("ends a runaway agent at its turn limit with an error the SDK surfaces", async () => {
    const { model, register } = await setup({
      reply: () => ({ type: "message", toolCalls: [{ name: "add", arguments: {} }] }),
    });
    const rollout = register({ limits: { maxTurns: 3 } });
    const agent = openaiAgent(rollout);
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "loop forever" }];
    let error: unknown;
    for (let turn = 0; turn < 10 && error === undefined; turn++) {
      try {
        const reply = await agent.chat.completions.create({ model: "scripted", messages, tools: [ADD_TOOL] });
        const message = reply.choices[0]!.message;
        messages.push(message, { role: "tool", tool_call_id: message.tool_calls![0]!.id, content: "0" });
      } catch (caught) {
        error = caught;
      }
    }
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain("limit of 3 model calls is reached");
    const trace = rollout.trace();
    expect(trace.stop).toBe("max_turns");
    expect(trace.calls).toHaveLength(3);
    expect(model.requests).toHaveLength(3);
    expect(trace.errors).toEqual([
      { type: "max_turns", message: "the task's limit of 3 model calls is reached" },
    ]);
  });

  it("caps completion tokens to the budget left, then refuses, and ends a run whose time is up", async () => {
    const { model, register } = await setup({ reply: () => "0123456789" });
    const budget = register({ limits: { maxCompletionTokens: 15 } });
    const agent = openaiAgent(budget);
    const ask = () =>
      agent.chat.completions.create({
        model: "scripted",
        messages: [{ role: "user", content: "go" }],
        max_tokens: 100,
      });
    await ask(); // 11 tokens: ten digits and the end token
    await ask(); // sent with max_tokens 4, what is left
    await expect(ask()).rejects.toMatchObject({ status: 400 });
    expect(model.bodies.map((body) => body.max_tokens)).toEqual([15, 4]);
    expect(budget.trace().stop).toBe("max_completion_tokens");

    const slow = await setup({ latencySeconds: 5 });
    const timed = slow.register({ limits: { timeSeconds: 0.3 } });
    const started = Date.now();
    await expect(
      openaiAgent(timed).chat.completions.create({
        model: "scripted",
        messages: [{ role: "user", content: "hi" }],
      }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining("time limit of 0.3 s is up") });
    expect(Date.now() - started).toBeLessThan(4000);
    const trace = await timed.end({ exitCode: null });
    expect(trace.stop).toBe("timeout");
    expect(trace.calls[0]).toMatchObject({ reply: null, error: expect.stringContaining("time limit") });
  });

  it("sets the host's sampling over the agent's, and removes a field set to null", async () => {
    const { model, register } = await setup({ reply: () => "ok" });
    const rollout = register({ sampling: { temperature: 1, seed: 7, top_p: null, return_token_ids: true } });
    await openaiAgent(rollout).chat.completions.create({
      model: "gpt-agent",
      messages: [{ role: "user", content: "hi" }],
      temperature: 0.2,
      top_p: 0.5,
      max_completion_tokens: 64,
    });
    expect(model.bodies[0]).toMatchObject({
      model: "scripted",
      temperature: 1,
      seed: 7,
      max_tokens: 64,
      return_token_ids: true,
    });
    expect(model.bodies[0]).not.toHaveProperty("top_p");
    expect(rollout.trace().calls[0]).toMatchObject({
      model: "gpt-agent",
      sampling: { temperature: 1, seed: 7, max_tokens: 64, return_token_ids: true },
    });
  });

  it("lets the tool-result hook rewrite or withhold what the model sees, once per result, and records it", async () => {
    const seen: string[] = [];
    const { model, register } = await setup({
      reply: byPrompt((messages) => {
        const tools = messages.filter((m) => m.role === "tool");
        return {
          type: "message",
          content: `saw ${tools.length}`,
          toolCalls: [{ name: "read", arguments: {} }],
        };
      }),
    });
    const rollout = register({
      onToolResult: ({ result, call }) => {
        seen.push(result.tool_call_id);
        const text = contentText(result.content);
        if (text.includes("tests/hidden")) return { type: "deny", reason: "hidden tests are off limits" };
        if (text.includes("SECRET"))
          return { type: "rewrite", content: text.replace("SECRET", "*****"), reason: call?.function.name };
        return { type: "keep" };
      },
    });
    const agent = anthropicAgent(rollout);
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "read the files" }];
    for (const output of ["key=SECRET", "cat tests/hidden/test_fix.py", "plain"]) {
      const reply = await agent.messages.create({ model: "m", max_tokens: 64, messages });
      const use = reply.content.find((block) => block.type === "tool_use")!;
      messages.push(
        { role: "assistant", content: reply.content },
        { role: "user", content: [{ type: "tool_result", tool_use_id: use.id, content: output }] },
      );
    }
    await agent.messages.create({ model: "m", max_tokens: 64, messages });
    const trace = await rollout.end();
    // Each result decided once, though later calls carry it again.
    expect(seen).toHaveLength(3);
    const lastSent = model.requests.at(-1)!.messages as Messages;
    expect(lastSent.filter((m) => m.role === "tool").map((m) => contentText(m.content))).toEqual([
      "key=*****",
      "[vf] this tool result was withheld: hidden tests are off limits",
      "plain",
    ]);
    expect(trace.toolResults).toMatchObject([
      { type: "rewrite", toolName: "read", original: "key=SECRET", forwarded: "key=*****", callIndex: 1 },
      {
        type: "deny",
        reason: "hidden tests are off limits",
        original: "cat tests/hidden/test_fix.py",
        callIndex: 2,
      },
    ]);
    expect(
      trace.calls[3]!.messages.filter((m) => m.role === "tool").map((m) => contentText(m.content))[0],
    ).toBe("key=*****");

    // A hook that throws fails the call (recorded), and is asked again at the next one.
    let broken = true;
    const flaky = register({
      onToolResult: () => {
        if (broken) throw new Error("policy service down");
        return { type: "keep" };
      },
    });
    const firstExchange = messages.slice(0, 3);
    const ask = () =>
      anthropicAgent(flaky).messages.create({ model: "m", max_tokens: 64, messages: firstExchange });
    await expect(ask()).rejects.toMatchObject({
      status: 500,
      message: expect.stringContaining("the tool-result hook failed: policy service down"),
    });
    broken = false;
    await ask();
    const flakyTrace = await flaky.end();
    expect(flakyTrace.errors).toMatchObject([{ type: "ToolResultHookError" }]);
    expect(flakyTrace.calls).toHaveLength(1);
  });

  it("keeps a slow streamed call alive, and ends an opened stream that fails with the API's error event", async () => {
    const { register } = await setup(
      {
        latencySeconds: 0.3,
        reply: byPrompt((messages) =>
          contentText(messages.at(-1)!.content) === "fail"
            ? { type: "error", status: 500, message: "the GPU caught fire" }
            : "slow but sure",
        ),
      },
      { keepAliveSeconds: 0.05 },
    );
    const rollout = register();
    const openai = openaiAgent(rollout);
    const ask = async (content: string) => {
      let text = "";
      const stream = await openai.chat.completions.create({
        model: "scripted",
        messages: [{ role: "user", content }],
        stream: true,
      });
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
      return text;
    };
    expect(await ask("go")).toBe("slow but sure");
    await expect(ask("fail")).rejects.toMatchObject({
      message: expect.stringContaining("the GPU caught fire"),
    });
    const claude = anthropicAgent(rollout);
    const stream = (content: string) =>
      claude.messages
        .stream({ model: "m", max_tokens: 64, messages: [{ role: "user", content }] })
        .finalMessage();
    expect((await stream("go")).content).toEqual([{ type: "text", text: "slow but sure" }]);
    await expect(stream("fail")).rejects.toMatchObject({
      message: expect.stringContaining("the GPU caught fire"),
    });
    // On the wire: the stream opened while the model worked, then the API's error event.
    const { baseUrl, apiKey } = rollout.endpoint("openai_chat_completions");
    const raw = await fetch(`${baseUrl}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "m", stream: true, messages: [{ role: "user", content: "fail" }] }),
    });
    expect(raw.status).toBe(200);
    expect(await raw.text()).toMatch(
      /^: waiting for the model\n\n[\s\S]*data: \{"error":\{"message":"[^"]*the GPU caught fire/,
    );
    expect(rollout.trace().calls.map((c) => c.error === null)).toEqual([true, false, true, false, false]);
  });

  it("answers a failed model call with an error and records it on the call", async () => {
    const { register } = await setup({
      reply: () => ({ type: "error", status: 500, message: "the GPU caught fire" }),
    });
    const rollout = register();
    await expect(
      openaiAgent(rollout).chat.completions.create({
        model: "scripted",
        messages: [{ role: "user", content: "hi" }],
      }),
    ).rejects.toMatchObject({ status: 502, message: expect.stringContaining("the GPU caught fire") });
    const trace = rollout.trace();
    expect(trace.calls).toMatchObject([
      { reply: null, node: null, error: expect.stringContaining("the GPU caught fire") },
    ]);
    expect(trace.errors).toHaveLength(1);
  });
});
