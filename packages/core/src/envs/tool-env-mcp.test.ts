// ToolEnv with tools from real MCP servers (the SDK's stdio and streamable-HTTP transports), played
// by the scripted model: what the model is offered, what it reads back, and that every server
// started is stopped again.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { OpenAIModelClient } from "../client/openai-model-client.ts";
import { Dataset } from "../datasets/index.ts";
import { AuthoringError, CancelledError } from "../errors.ts";
import { type HttpTestServer, startHttpTestServer } from "../mcp/fixtures/http-test-server.ts";
import { isRunning, stdioTestServer } from "../mcp/fixtures/stdio-test-server.ts";
import { createTestToolServer } from "../mcp/fixtures/test-tool-server.ts";
import type { McpServerInput } from "../mcp/mcp-server-config.ts";
import type { ToolMessage } from "../messages/message.ts";
import type { RolloutInput, RolloutState } from "../rollout/rollout-state.ts";
import { type ScriptedServer, startScriptedServer } from "../testing/index.ts";
import { type ScriptedReply, sequence } from "../testing/scripted-reply.ts";
import { tool } from "../tools/tool.ts";
import { type AnyTool, ToolEnv } from "./tool-env.ts";

const dataset = Dataset.fromRows([{ question: "Say hello through the tool.", answer: "hello" }]);
const input: RolloutInput = {
  exampleId: 0,
  rolloutIndex: 0,
  prompt: [{ role: "user", content: "Say hello through the tool." }],
  answer: "hello",
  info: {},
  task: "default",
};

let model: ScriptedServer | undefined;
let http: HttpTestServer;
const envs: ToolEnv[] = [];
beforeAll(async () => {
  http = await startHttpTestServer(createTestToolServer);
});
afterAll(async () => {
  await http?.close();
});
afterEach(async () => {
  await model?.close();
  model = undefined;
  await Promise.all(envs.splice(0).map((env) => env.teardown()));
});

const call = (name: string, args: Record<string, unknown> = {}): ScriptedReply => ({
  type: "message",
  toolCalls: [{ id: `call_${name}`, name, arguments: args }],
});

/** An environment over `servers` (torn down after the test) and a model client replaying `replies`. */
async function setup(
  servers: McpServerInput[],
  replies: Parameters<typeof sequence>[0],
  extra: { timeoutSeconds?: number } = {},
) {
  model = await startScriptedServer({ reply: sequence(replies) });
  const client = new OpenAIModelClient({ baseUrl: model.url, apiKey: "EMPTY", maxRetries: 0 });
  const env = new ToolEnv({ dataset, mcpServers: servers, ...extra });
  envs.push(env as ToolEnv);
  return { env, ctx: { client, model: "scripted" } };
}

const toolTexts = (state: RolloutState) =>
  state.completion.filter((m): m is ToolMessage => m.role === "tool").map((m) => m.content);

describe("ToolEnv with MCP servers", () => {
  it("offers a stdio server's tools with their JSON schemas and returns their results as tool messages", async () => {
    const { env, ctx } = await setup([stdioTestServer()], [call("echo", { text: "hello" }), "hello"]);
    const state = await env.rollout(input, ctx);
    expect(state.error).toBeNull();
    expect(toolTexts(state)).toEqual(["hello"]);
    expect(model!.requests[0]!.tools?.find((t) => t.function.name === "echo")).toEqual({
      type: "function",
      function: {
        name: "echo",
        description: "Echo the text back.",
        parameters: {
          type: "object",
          properties: { text: { type: "string", description: "what to echo" } },
          required: ["text"],
        },
      },
    });
    expect(env.monitorMetrics(state)).toMatchObject({ echo_calls: 1, total_tool_calls: 1 });
  });

  it("shares one server between rollouts, and stops it at teardown", async () => {
    const { env, ctx } = await setup([stdioTestServer()], [call("count"), "done", call("pid"), "done"]);
    const first = await env.rollout(input, ctx);
    const second = await env.rollout(input, ctx);
    expect(toolTexts(first)).toEqual(["1"]);
    const pid = Number(toolTexts(second)[0]);
    expect(isRunning(pid)).toBe(true);
    await env.teardown();
    await expect.poll(() => isRunning(pid), { timeout: 20_000 }).toBe(false);
  });

  it("starts a server of its own for each rollout with scope 'rollout', and stops it when the rollout ends", async () => {
    const { env, ctx } = await setup(
      [stdioTestServer({ scope: "rollout" })],
      [call("count"), call("pid"), "done", call("count"), "done"],
    );
    const first = await env.rollout(input, ctx);
    const second = await env.rollout(input, ctx);
    const [count, pid] = toolTexts(first);
    expect(count).toBe("1");
    expect(toolTexts(second)).toEqual(["1"]);
    expect(isRunning(Number(pid))).toBe(false);
  });

  it("reaches an HTTP server by URL, with its tools' names prefixed", async () => {
    const { env, ctx } = await setup(
      [{ type: "http", name: "remote", url: http.url, prefix: true, tools: ["echo"] }],
      [call("remote_echo", { text: "over http" }), "done"],
    );
    const state = await env.rollout(input, ctx);
    expect(toolTexts(state)).toEqual(["over http"]);
    expect(model!.requests[0]!.tools?.map((t) => t.function.name)).toEqual(["remote_echo"]);
  });

  it("tells the model about errors, malformed results, timeouts and a crash, and starts a crashed server again", async () => {
    const { env, ctx } = await setup(
      [stdioTestServer({ toolTimeoutSeconds: 0.5 })],
      [
        call("fail"),
        call("malformed"),
        call("hang"),
        call("echo", { text: 7 }),
        call("crash"),
        call("echo", { text: "back again" }),
        "done",
      ],
    );
    const state = await env.rollout(input, ctx);
    expect(state.error).toBeNull();
    const texts = toolTexts(state);
    expect(texts[0]).toBe("Error: fail failed: the test tool failed on purpose");
    expect(texts[1]).toMatch(
      /^Error: malformed failed: MCP server "tests" returned a malformed result for malformed: content/,
    );
    expect(texts[2]).toBe('Error: hang failed: MCP server "tests" did not answer hang within 0.5 s');
    expect(texts[3]).toBe("Error: echo failed: text must be a string");
    expect(texts[4]).toMatch(
      /^Error: crash failed: MCP server "tests" closed the connection during crash .*crashing on purpose/,
    );
    expect(texts[5]).toBe("back again");
    expect(state.stopCondition).toBe("no_tools_called");
  });

  it("ends the rollout with the error when a server cannot start", async () => {
    const { env, ctx } = await setup([stdioTestServer({}, ["--exit-at-start"])], ["never asked"]);
    const state = await env.rollout(input, ctx);
    expect(state.stopCondition).toBe("has_error");
    expect(state.error).toMatchObject({ error: "McpServerError" });
    expect(state.error?.message).toMatch(
      /^MCP server "tests" could not be started .*cannot open its database/,
    );
    expect(model!.requests).toHaveLength(0);
  });

  it("stops a rollout's own server when the rollout is cancelled during a call", async () => {
    const { env, ctx } = await setup(
      [stdioTestServer({ scope: "rollout" })],
      [call("pid"), call("hang"), "done"],
    );
    const abort = new AbortController();
    const rollout = env.rollout(input, { ...ctx, signal: abort.signal });
    await expect.poll(() => model!.requests.length, { timeout: 20_000 }).toBe(2);
    const pid = Number((model!.requests[1]!.messages.at(-1) as ToolMessage).content);
    expect(isRunning(pid)).toBe(true);
    abort.abort();
    await expect(rollout).rejects.toBeInstanceOf(CancelledError);
    await expect.poll(() => isRunning(pid), { timeout: 20_000 }).toBe(false);
  });

  it("times a rollout out during a call that hangs, and stops its server", async () => {
    const { env, ctx } = await setup(
      [stdioTestServer({ scope: "rollout", toolTimeoutSeconds: 600 })],
      [call("pid"), call("hang"), "done"],
      { timeoutSeconds: 5 },
    );
    const state = await env.rollout(input, ctx);
    expect(state.stopCondition).toBe("timeout_reached");
    const pid = Number(toolTexts(state)[0]);
    await expect.poll(() => isRunning(pid), { timeout: 20_000 }).toBe(false);
  });

  it("lists the servers' tools with the environment's own", async () => {
    const own = tool({ name: "own", description: "Mine.", parameters: z.object({}), run: () => "mine" });
    const env = new ToolEnv({
      dataset,
      tools: [own as AnyTool],
      mcpServers: [stdioTestServer({ tools: ["echo", "pid"] })],
    });
    envs.push(env);
    expect((await env.listTools()).map((t) => t.function.name)).toEqual(["own", "echo", "pid"]);
  });

  it("refuses bad server settings and tool names that clash", async () => {
    expect(() => new ToolEnv({ dataset, mcpServers: [{ type: "stdio", name: "x", command: "" }] })).toThrow(
      AuthoringError,
    );
    expect(
      () => new ToolEnv({ dataset, mcpServers: [{ type: "http", name: "x", url: "not a url" }] }),
    ).toThrow(/^MCP server "x": url: /);
    expect(
      () =>
        new ToolEnv({
          dataset,
          mcpServers: [
            { type: "http", name: "x", url: http.url },
            { type: "http", name: "x", url: http.url },
          ],
        }),
    ).toThrow('two MCP servers are named "x": give each server its own name');
    const echo = tool({ name: "echo", description: "Mine.", parameters: z.object({}), run: () => "mine" });
    const env = new ToolEnv({
      dataset,
      tools: [echo as AnyTool],
      mcpServers: [{ type: "http", name: "x", url: http.url }],
    });
    envs.push(env);
    await expect(env.listTools()).rejects.toThrow(
      `tool "echo" of MCP server "x" has the name of one of the environment's own tools: give the server a prefix`,
    );
  });
});
