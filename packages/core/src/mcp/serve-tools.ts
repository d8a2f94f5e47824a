/**
 * An environment's tools served as an MCP server (the other way round from `mcpServers`): a tool
 * session's definitions become the server's tool list, with their JSON schemas, and each call runs
 * the environment's tool and answers its tool message, an error as an error result. Over stdio, so
 * any MCP client (an IDE, an agent, the MCP inspector) can start `vf env tools <env> --mcp`.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool as McpToolListing,
} from "@modelcontextprotocol/sdk/types.js";
import type { ToolSession } from "../envs/tool-env.ts";
import type { ToolMessage } from "../messages/message.ts";

/** How the served environment names itself to clients. */
export interface ServeToolsOptions {
  name: string;
  version: string;
}

/** An MCP server whose tools are the session's. */
export function toolsMcpServer(session: ToolSession, options: ServeToolsOptions): Server {
  const server = new Server(
    { name: options.name, version: options.version },
    { capabilities: { tools: {} } },
  );
  const tools: McpToolListing[] = session.definitions.map((d) => ({
    name: d.function.name,
    ...(d.function.description === undefined ? {} : { description: d.function.description }),
    inputSchema: { type: "object", ...d.function.parameters } as McpToolListing["inputSchema"],
  }));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { content, isError } = await session.call(
      request.params.name,
      JSON.stringify(request.params.arguments ?? {}),
    );
    return { content: mcpContent(content), ...(isError ? { isError: true } : {}) };
  });
  return server;
}

/**
 * Serves the session's tools over this process's stdin and stdout until the client closes stdin
 * (or `transport` closes); resolves then. Nothing else may write to stdout meanwhile.
 */
export async function serveToolsOverStdio(
  session: ToolSession,
  options: ServeToolsOptions,
  transport: Transport = new StdioServerTransport(),
): Promise<void> {
  const server = toolsMcpServer(session, options);
  const ended = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once("end", () => resolve());
  });
  await server.connect(transport);
  await ended;
  await server.close();
}

/** A tool message's content as MCP content: text, and images (data URLs) as image parts. */
function mcpContent(content: ToolMessage["content"]): CallToolResult["content"] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return content.map((part) => {
    if (part.type === "text") return { type: "text", text: part.text };
    const data = /^data:([^;,]+);base64,(.*)$/s.exec(part.image_url.url);
    return data
      ? { type: "image", mimeType: data[1]!, data: data[2]! }
      : { type: "text", text: `[image: ${part.image_url.url}]` };
  });
}
