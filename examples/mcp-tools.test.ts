// The README's MCP example runs: a ToolEnv offers the model the tools of a stdio server (vf serving
// wiki-search's tools, started through npx) and of a streamable-HTTP server (one written here with
// the SDK, on loopback); the model calls one of each and reads what the servers answered; teardown
// stops the stdio server.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { Dataset } from "@vf-rl/core";
import { evaluateScripted } from "@vf-rl/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { mcpToolEnv } from "./mcp-tools.ts";

/** A stateless MCP server over streamable HTTP with one tool, `read_note(title)`. */
function notesServer(): Server {
  return createServer(async (req, res) => {
    const mcp = new McpServer({ name: "notes", version: "0" });
    mcp.registerTool(
      "read_note",
      { description: "A note by its title", inputSchema: { title: z.string() } },
      ({ title }) => ({
        content: [{ type: "text", text: title === "museum" ? "It is in London." : "no such note" }],
      }),
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => void transport.close());
    await mcp.connect(transport);
    await transport.handleRequest(req, res);
  });
}

let http: Server;
let url: string;
beforeAll(async () => {
  http = notesServer();
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  http.closeAllConnections();
  await new Promise<void>((resolve) => http.close(() => resolve()));
});

describe("README example: tools from MCP servers", () => {
  it("offers a stdio server's and an HTTP server's tools and gives the model their results", async () => {
    const dataset = Dataset.fromRows([
      { question: "Where is the Victoria and Albert Museum?", answer: "London" },
    ]);
    const env = mcpToolEnv(dataset, url);
    try {
      const result = await evaluateScripted(env, {
        reply: (request) => {
          const turn = request.messages.filter((m) => m.role === "assistant").length;
          if (turn === 0) {
            return {
              type: "message",
              toolCalls: [{ name: "search_pages", arguments: { query: "Victoria and Albert Museum" } }],
            };
          }
          if (turn === 1)
            return { type: "message", toolCalls: [{ name: "read_note", arguments: { title: "museum" } }] };
          return "London";
        },
      });
      expect(result.records[0]!.error).toBeNull();
      expect(result.requests[0]!.tools?.map((t) => t.function.name)).toEqual([
        "search_pages",
        "view_sections",
        "read_section",
        "read_note",
      ]);
      const hits = JSON.parse(String(result.requests[1]!.messages.at(-1)!.content));
      expect(hits[0]).toEqual({ page_id: "victoria_and_albert_museum", title: "Victoria and Albert Museum" });
      expect(result.requests[2]!.messages.at(-1)).toMatchObject({
        role: "tool",
        content: "It is in London.",
      });
      expect(result.records[0]!.metrics).toMatchObject({
        search_pages_calls: 1,
        read_note_calls: 1,
        num_turns: 3,
      });
    } finally {
      await env.teardown();
    }
  }, 60_000);
});
