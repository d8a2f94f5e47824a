/**
 * The bundled MCP server: the three wiki tools over one corpus, as an `McpServer` of the official
 * SDK. A `WikiLookupError` becomes a tool result with `isError`, its message the text the model reads.
 * wiki-server-main.ts runs it over stdio; tests may connect it to any transport.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { WikiCorpus } from "./wiki-corpus.ts";
import { WIKI_TOOLS } from "./wiki-tools.ts";

/** The server's name and version, as it tells clients. */
export const WIKI_SERVER_INFO = { name: "wiki-search", version: "0.1.0" } as const;

/** An MCP server offering search_pages, view_sections and read_section over `corpus`. */
export function createWikiMcpServer(corpus: WikiCorpus): McpServer {
  const server = new McpServer(WIKI_SERVER_INFO);
  for (const spec of WIKI_TOOLS) {
    server.registerTool(
      spec.name,
      { description: spec.description, inputSchema: spec.parameters, annotations: { readOnlyHint: true } },
      // biome-ignore lint/suspicious/noExplicitAny: each spec's run takes its own schema's arguments
      (args: any): CallToolResult => {
        try {
          return { content: [{ type: "text", text: spec.run(corpus, args) }] };
        } catch (error) {
          return { content: [{ type: "text", text: (error as Error).message }], isError: true };
        }
      },
    );
  }
  return server;
}
