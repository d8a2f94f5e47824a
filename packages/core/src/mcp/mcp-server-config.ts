/**
 * Where an environment's MCP servers are and how they are run: a stdio server is a command vf
 * starts (once for the environment, or once per rollout), an HTTP server a URL it connects to with
 * the streamable-HTTP transport. Plain data, so it can sit in an environment's options or arguments.
 */
import { z } from "zod";

const ServerName = z
  .string()
  .regex(/^[a-zA-Z0-9_-]{1,64}$/, "a server name is 1 to 64 letters, digits, _ or -");

/** What both kinds of server take. */
const Common = {
  /** Names the server in error messages; also the default prefix of its tools when `prefix` is true. */
  name: ServerName,
  /**
   * `shared` (default): one connection for every rollout of the environment, opened at the first
   * rollout. `rollout`: a connection (for stdio, a process) of its own per rollout, opened at the
   * rollout's first call of one of its tools and closed when the rollout ends.
   */
  scope: z.enum(["shared", "rollout"]).default("shared"),
  /** Puts `<prefix>_` before each tool's name (`true`: the server's name), to keep two servers' tools apart. */
  prefix: z.union([z.boolean(), ServerName]).default(false),
  /** Only these tools of the server are offered to the model (their names on the server); all when absent. */
  tools: z.array(z.string()).optional(),
  /** Seconds a tool call may take before it becomes a tool error; default 30. */
  toolTimeoutSeconds: z.number().positive().default(30),
  /** Seconds starting the server, connecting and listing its tools may take; default 30. */
  startTimeoutSeconds: z.number().positive().default(30),
};

/** A server vf starts as a child process and talks to over its stdin and stdout. */
export const McpStdioServer = z
  .object({
    type: z.literal("stdio"),
    ...Common,
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    /** Variables added to the server's environment (which has PATH, HOME and the like, not vf's secrets). */
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().optional(),
  })
  .strict();
export type McpStdioServer = z.infer<typeof McpStdioServer>;

/** A running server vf connects to over streamable HTTP. */
export const McpHttpServer = z
  .object({
    type: z.literal("http"),
    ...Common,
    url: z.url(),
    /** Headers sent with every request, e.g. `Authorization`. */
    headers: z.record(z.string(), z.string()).optional(),
  })
  .strict();
export type McpHttpServer = z.infer<typeof McpHttpServer>;

/** An MCP server whose tools an environment offers the model. */
export const McpServerConfig = z.discriminatedUnion("type", [McpStdioServer, McpHttpServer]);
/** As written by an author (defaults may be left out). */
export type McpServerInput = z.input<typeof McpServerConfig>;
/** With every default filled in. */
export type McpServerConfig = z.infer<typeof McpServerConfig>;

/** The prefix of a server's tool names, or "" for none. */
export function toolPrefix(config: McpServerConfig): string {
  if (config.prefix === false) return "";
  return `${config.prefix === true ? config.name : config.prefix}_`;
}
