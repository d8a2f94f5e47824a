/**
 * @vf-rl/core/mcp: an environment's tools served as an MCP server over stdio (`vf env tools --mcp`).
 * Environments take tools from MCP servers through ToolEnv's `mcpServers` (root export); this
 * subpath loads the MCP SDK, so it is kept out of the root import.
 */
export { serveToolsOverStdio } from "./serve-tools.ts";
