// What the interception server controls for the host: per-rollout secrets and traces, turn,
// token and time limits, sampling overrides, the tool-result hook, keep-alive and failed calls;
// the real SDKs on the agent side, the scripted model behind it.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { Messages } from "../messages/message.ts";
import { contentText } from "../messages/message.ts";
import { byPrompt } from "../testing/index.ts";
import { ADD_TOOL, anthropicAgent, openaiAgent, setup } from "./interception-test-support.ts";

describe("the interception server, for the host", () => {
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
