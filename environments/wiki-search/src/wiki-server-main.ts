/**
 * The wiki-search MCP server's process: loads the shipped corpus, builds its index, and serves the
 * tools over stdio. It exits when its standard input closes, so it never outlives its client, even
 * one killed with SIGKILL. `wikiServerCommand` is how the environment starts it.
 */
import { fileURLToPath, pathToFileURL } from "node:url";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { type NodeCommand, nodeCommand } from "@vf-rl/core/loading";
import { WikiCorpus } from "./wiki-corpus.ts";
import { loadPages } from "./wiki-data.ts";
import { createWikiMcpServer } from "./wiki-mcp-server.ts";

/** The command and arguments that start this server: node on its built file, or through tsx from source. */
export function wikiServerCommand(): NodeCommand {
  return nodeCommand(fileURLToPath(import.meta.url));
}

async function serve(): Promise<void> {
  const server = createWikiMcpServer(new WikiCorpus(loadPages()));
  process.stdin.once("end", () => process.exit(0));
  await server.connect(new StdioServerTransport());
}

if (process.argv[1] !== undefined && pathToFileURL(process.argv[1]).href === import.meta.url) {
  serve().catch((error: unknown) => {
    console.error(`wiki-search server: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
