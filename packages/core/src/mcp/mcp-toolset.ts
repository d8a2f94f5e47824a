/**
 * The MCP servers of one environment and their tools. Shared servers are connected once, at the
 * first rollout, and reconnected at their next use after they went away; a per-rollout server is
 * started for a rollout at its first call of one of its tools and stopped with the rollout's
 * session. The tools are listed once: a per-rollout server is started, asked and stopped for that.
 * `close()` stops everything, also a start still under way.
 */
import { AuthoringError, McpServerError } from "../errors.ts";
import type { ToolResult } from "../tools/tool.ts";
import { McpConnection } from "./mcp-connection.ts";
import { type McpServerConfig, toolPrefix } from "./mcp-server-config.ts";

/** A server's tool as the model sees it: `name` (prefixed, made a valid function name) and the server's own. */
export interface McpTool {
  name: string;
  server: McpServerConfig;
  remoteName: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** The tools of an environment's MCP servers, and the connections that serve them. */
export class McpToolset {
  private listing: Promise<McpTool[]> | undefined;
  private readonly shared = new Map<string, Promise<McpConnection>>();
  private readonly opened = new Set<McpConnection>();
  private isClosed = false;

  constructor(readonly servers: readonly McpServerConfig[]) {}

  /**
   * Every server's tools, listed once (a failure is not kept: the next caller tries again). `taken`
   * are names already used by the environment's own tools; a clash is an `AuthoringError`.
   */
  tools(taken: readonly string[], signal?: AbortSignal): Promise<McpTool[]> {
    this.listing ??= this.listAll(taken).catch((error: unknown) => {
      this.listing = undefined;
      throw error;
    });
    return untilAborted(this.listing, signal);
  }

  /** A rollout's calls: shared servers' tools go to the shared connection, the others to the rollout's own. */
  session(): McpSession {
    return new McpSession(this);
  }

  /** Stops every server this toolset started or connected to; later calls fail. */
  async close(): Promise<void> {
    this.isClosed = true;
    const pending = [...this.shared.values()];
    this.shared.clear();
    await Promise.allSettled(pending.map(async (p) => (await p).close()));
    await Promise.allSettled([...this.opened].map((c) => c.close()));
  }

  /** Opens a connection that `close()` will stop. */
  async open(server: McpServerConfig, signal?: AbortSignal): Promise<McpConnection> {
    if (this.isClosed) throw closedError(server);
    const connection = await McpConnection.open(server, signal);
    if (this.isClosed) {
      await connection.close();
      throw closedError(server);
    }
    this.opened.add(connection);
    void connection.closed.then(() => this.opened.delete(connection));
    return connection;
  }

  /** The shared connection to `server`, opened on first use and again after it went away. */
  async sharedConnection(server: McpServerConfig, signal?: AbortSignal): Promise<McpConnection> {
    let pending = this.shared.get(server.name);
    if (pending !== undefined) {
      const connection = await untilAborted(pending, signal).catch(() => undefined);
      if (connection !== undefined && !connection.isClosed) return connection;
      if (this.shared.get(server.name) === pending) this.shared.delete(server.name);
    }
    pending = this.shared.get(server.name);
    if (pending === undefined) {
      // Not tied to one rollout's signal: other rollouts wait for the same start.
      pending = this.open(server);
      this.shared.set(server.name, pending);
      pending.catch(() => {
        if (this.shared.get(server.name) === pending) this.shared.delete(server.name);
      });
    }
    return untilAborted(pending, signal);
  }

  private async listAll(taken: readonly string[]): Promise<McpTool[]> {
    const lists = await Promise.all(this.servers.map((server) => this.listServer(server)));
    const names = new Map<string, string>(taken.map((name) => [name, "the environment's own tools"]));
    const tools = lists.flat();
    for (const t of tools) {
      const other = names.get(t.name);
      if (other !== undefined) {
        throw new AuthoringError(
          `tool "${t.name}" of MCP server "${t.server.name}" has the name of one of ${other}: give the server a prefix`,
        );
      }
      names.set(t.name, `MCP server "${t.server.name}"'s tools`);
    }
    return tools;
  }

  private async listServer(server: McpServerConfig): Promise<McpTool[]> {
    const connection =
      server.scope === "shared" ? await this.sharedConnection(server) : await this.open(server);
    try {
      const listed = await connection.listTools();
      const wanted = server.tools;
      if (wanted !== undefined) {
        const missing = wanted.filter((name) => !listed.some((t) => t.name === name));
        if (missing.length > 0) {
          throw new McpServerError(
            `MCP server "${server.name}" has no tool ${missing.map((n) => `"${n}"`).join(", ")}; it has ${listed.map((t) => t.name).join(", ") || "none"}: fix the server's tools list`,
            server.name,
          );
        }
      }
      const prefix = toolPrefix(server);
      return listed
        .filter((t) => wanted === undefined || wanted.includes(t.name))
        .map((t) => ({
          name: functionName(`${prefix}${t.name}`),
          server,
          remoteName: t.name,
          description: t.description,
          inputSchema: t.inputSchema,
        }));
    } finally {
      if (server.scope === "rollout") await connection.close();
    }
  }
}

/** One rollout's connections to its per-rollout servers, started at their first call. */
export class McpSession {
  private readonly own = new Map<string, Promise<McpConnection>>();
  private ended = false;

  constructor(private readonly toolset: McpToolset) {}

  /** Calls `tool` within its server's `toolTimeoutSeconds`; fails with an McpToolError or McpServerError. */
  async call(tool: McpTool, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolResult> {
    const server = tool.server;
    const connection =
      server.scope === "shared"
        ? await this.toolset.sharedConnection(server, signal)
        : await this.ownConnection(server, signal);
    return connection.call(tool.remoteName, args, {
      timeoutMs: server.toolTimeoutSeconds * 1000,
      ...(signal ? { signal } : {}),
    });
  }

  /** Stops this rollout's own servers. */
  async close(): Promise<void> {
    this.ended = true;
    const pending = [...this.own.values()];
    this.own.clear();
    await Promise.allSettled(pending.map(async (p) => (await p).close()));
  }

  private async ownConnection(server: McpServerConfig, signal?: AbortSignal): Promise<McpConnection> {
    if (this.ended) throw closedError(server);
    let pending = this.own.get(server.name);
    if (pending === undefined) {
      const opening = this.toolset.open(server, signal);
      // A start that failed is tried again at the next call.
      opening.catch(() => {
        if (this.own.get(server.name) === opening) this.own.delete(server.name);
      });
      this.own.set(server.name, opening);
      pending = opening;
    }
    const connection = await pending;
    if (connection.isClosed) {
      // It went away during an earlier call of this rollout: start it again.
      this.own.delete(server.name);
      return this.ownConnection(server, signal);
    }
    return connection;
  }
}

/** An MCP tool name as a function name models accept: characters outside [a-zA-Z0-9_-] become _. */
function functionName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
}

function closedError(server: McpServerConfig): McpServerError {
  return new McpServerError(`MCP server "${server.name}" was stopped with its environment`, server.name);
}

/** `promise`, or the signal's reason as soon as it aborts (the promise itself goes on for others). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
