/**
 * A taskset's tools for one rollout (`Taskset.tools`), served to the agent as an MCP server: verifiers'
 * per-task toolsets. The interception server answers MCP's streamable HTTP at `/mcp/<rollout secret>`,
 * so the tools are reachable wherever the agent reaches its model, and only by that rollout. Each
 * request gets a server of its own (MCP's stateless mode): the rollout's state lives in the tools'
 * own closures, made per rollout, not in an MCP session. Calls are checked and run as ToolEnv runs
 * them (tools/call-tool.ts); a failure goes back to the agent as an error result, as the model
 * would read it in a ToolEnv.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { z } from "zod";
import type { ToolSession } from "../envs/tool-env.ts";
import { callTool, toolReply } from "../tools/call-tool.ts";
import { type Tool, toolDefinition } from "../tools/tool.ts";
import type { AgentTask } from "./agent-task.ts";
import type { Runtime } from "./runtime.ts";

/** What a task's tool is handed when the agent calls it. */
export interface TaskToolContext {
  task: AgentTask;
  /** The runtime the agent works in, open: a tool may read its files or run commands there. */
  runtime: Runtime;
  /** Aborted when the rollout ends. */
  signal: AbortSignal;
}

/** A tool a taskset gives a task's agent (made with `tool`, its context a `TaskToolContext`). */
// biome-ignore lint/suspicious/noExplicitAny: tools of any argument schema
export type TaskTool = Tool<z.ZodObject<any>, TaskToolContext>;

/** `tools` bound to one rollout's context, as the session the MCP route serves. */
export function taskToolSession(tools: readonly TaskTool[], ctx: TaskToolContext): ToolSession {
  const byName = new Map(tools.map((t) => [t.name, t]));
  return {
    definitions: tools.map((t) => toolDefinition(t)),
    call: async (name, args) => toolReply(await callTool(byName, name, args, ctx)),
    close: async () => {},
  };
}

/** Answers one MCP request (POST; GET and DELETE have no stream or session to give) with `session`'s tools. */
export async function answerMcp(
  req: IncomingMessage,
  res: ServerResponse,
  session: ToolSession,
): Promise<void> {
  if (req.method !== "POST") {
    req.resume();
    res.writeHead(405, { allow: "POST", "content-type": "application/json" });
    res.end(
      JSON.stringify({
        jsonrpc: "2.0",
        error: { code: -32000, message: "POST only: a stateless server" },
        id: null,
      }),
    );
    return;
  }
  // The MCP SDK is loaded by the first rollout whose task has tools.
  const [{ StreamableHTTPServerTransport }, { toolsMcpServer }] = await Promise.all([
    import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
    import("../mcp/serve-tools.ts"),
  ]);
  const server = toolsMcpServer(session, { name: "vf-task-tools", version: "1" });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on("close", () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}
