// A ToolEnv whose tools come from an MCP server: here wiki-search's bundled one, started once for
// the environment (scope "shared") over stdio. Any MCP server works the same way: a command vf
// starts, once or per rollout, or a URL it connects to:
//   { type: "stdio", name: "scratch", command: "my-mcp-server", args: ["--quiet"], scope: "rollout" }
//   { type: "http", name: "docs", url: "https://example.com/mcp", headers: { Authorization: "Bearer ..." } }
import { wikiServerCommand } from "@vf-env/wiki-search";
import { Dataset, ToolEnv } from "@vf-rl/core";

export const env = new ToolEnv({
  dataset: Dataset.fromRows([{ question: "Where is the Victoria and Albert Museum?", answer: "London" }]),
  mcpServers: [{ type: "stdio", name: "wiki", ...wikiServerCommand(), scope: "shared" }],
  maxTurns: 6,
});
