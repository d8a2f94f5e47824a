/**
 * How a child Node process is started on a module that is TypeScript where its package runs from
 * source and JavaScript once built: an environment's own server (wiki-search's MCP server), an
 * env-server worker. Not for the environment package itself, which `importEntry` loads in process.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const FROM_SOURCE = import.meta.url.endsWith(".ts");

/** A program and its arguments, as `spawn` and a stdio MCP server config take them. */
export interface NodeCommand {
  command: string;
  args: string[];
}

/**
 * The command that runs the module `file` (a path) in a new process of this Node: node on it as it
 * is for JavaScript; for TypeScript, with tsx's loader (core's own dependency) and, when vf itself
 * runs from its sources, the "vf-source" condition, so the child's `@vf-rl/*` imports do too.
 *
 * @example
 * const { command, args } = nodeCommand(fileURLToPath(new URL("./server-main.ts", import.meta.url)));
 * spawn(command, args);
 */
export function nodeCommand(file: string): NodeCommand {
  const flags = /\.[cm]?tsx?$/.test(file)
    ? [
        ...(FROM_SOURCE ? ["--conditions=vf-source"] : []),
        "--import",
        pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href,
      ]
    : [];
  return { command: process.execPath, args: [...flags, file] };
}
