// Tools from MCP servers in any ToolEnv: a command vf starts and talks to over stdio (once for the
// environment, or once per rollout with scope "rollout"), and a streamable-HTTP server by its URL.
// The command here, `vf env tools wiki-search --mcp`, serves wiki-search's tools over stdio; any MCP
// server's command is written the same way, e.g. a filesystem server:
//   { type: "stdio", name: "files", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."] }
// and an HTTP server can be sent headers: { type: "http", name: "docs", url, headers: { Authorization: "..." } }.
import { type Dataset, ToolEnv } from "@vf-rl/core";

/** A ToolEnv over `dataset` whose tools are a stdio server's and those of the HTTP server at `url`. */
export function mcpToolEnv(dataset: Dataset, url: string) {
  return new ToolEnv({
    dataset,
    mcpServers: [
      { type: "stdio", name: "wiki", command: "npx", args: ["vf", "env", "tools", "wiki-search", "--mcp"] },
      { type: "http", name: "notes", url },
    ],
  });
}
