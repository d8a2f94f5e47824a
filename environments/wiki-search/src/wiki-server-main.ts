/**
 * The wiki-search MCP server's process: loads the shipped corpus, builds its index, and serves the
 * tools over stdio. It exits when its standard input closes, so it never outlives its client, even
 * one killed with SIGKILL. `wikiServerCommand` is how the environment starts it.
 */
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { WikiCorpus } from "./wiki-corpus.ts";
import { loadPages } from "./wiki-data.ts";
import { createWikiMcpServer } from "./wiki-mcp-server.ts";

const FROM_SOURCE = import.meta.url.endsWith(".ts");

/** The command and arguments that start this server: node on its built file, or through tsx from source. */
export function wikiServerCommand(): { command: string; args: string[] } {
  const file = fileURLToPath(import.meta.url);
  const flags = FROM_SOURCE
    ? [
        "--conditions=vf-source",
        "--import",
        pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href,
      ]
    : [];
  return { command: process.execPath, args: [...flags, file] };
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
