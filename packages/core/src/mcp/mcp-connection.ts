/**
 * One live connection to an MCP server through the official SDK's client: a stdio server started
 * as a child process (its stderr kept for error messages, never mixed into vf's output), or an HTTP
 * server reached by URL. It lists the server's tools and calls them, turning every way a call can
 * fail into an `McpToolError` or `McpServerError` whose message the model can read.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type CallToolResult, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { McpServerError, McpToolError } from "../errors.ts";
import type { ToolResult } from "../tools/tool.ts";
import { mcpResultContent, mcpResultText } from "./mcp-result.ts";
import type { McpServerConfig } from "./mcp-server-config.ts";

/** A tool as the server lists it: its name there, description and JSON-schema arguments. */
export interface McpToolInfo {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** What one call may take. */
export interface McpCallOptions {
  signal?: AbortSignal;
  timeoutMs: number;
}

const CLIENT_INFO = { name: "vf", version: "0.1.0" } as const;
const STDERR_TAIL_CHARS = 2000;

/** A connected server; `closed` settles when the connection ends, by `close()` or because the server went away. */
export class McpConnection {
  readonly closed: Promise<void>;
  private ended = false;
  private stderr = "";

  private constructor(
    readonly config: McpServerConfig,
    private readonly client: Client,
    private readonly transport: Transport,
  ) {
    this.closed = new Promise((resolve) => {
      client.onclose = () => {
        this.ended = true;
        resolve();
      };
    });
    if (transport instanceof StdioClientTransport) {
      transport.stderr?.on("data", (chunk: Buffer) => {
        this.stderr = (this.stderr + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
      });
    }
  }

  /**
   * Starts (stdio) or reaches (HTTP) the server and completes MCP's handshake within the server's
   * `startTimeoutSeconds`. A failure closes whatever was started and throws an `McpServerError`.
   */
  static async open(config: McpServerConfig, signal?: AbortSignal): Promise<McpConnection> {
    const transport =
      config.type === "stdio"
        ? new StdioClientTransport({
            command: config.command,
            args: config.args,
            ...(config.env ? { env: config.env } : {}),
            ...(config.cwd ? { cwd: config.cwd } : {}),
            stderr: "pipe",
          })
        : new StreamableHTTPClientTransport(new URL(config.url), {
            ...(config.headers ? { requestInit: { headers: config.headers } } : {}),
          });
    const client = new Client(CLIENT_INFO);
    const connection = new McpConnection(config, client, transport);
    try {
      await client.connect(transport, {
        timeout: config.startTimeoutSeconds * 1000,
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      await connection.close();
      if (signal?.aborted) throw signal.reason;
      throw new McpServerError(connection.describe("could not be started", error), config.name, {
        cause: error,
      });
    }
    return connection;
  }

  /** The process id of a stdio server while it runs. */
  get pid(): number | undefined {
    return this.transport instanceof StdioClientTransport ? (this.transport.pid ?? undefined) : undefined;
  }

  /** True once the connection has ended. */
  get isClosed(): boolean {
    return this.ended;
  }

  /** Every tool the server lists (all pages of the list). */
  async listTools(signal?: AbortSignal): Promise<McpToolInfo[]> {
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    try {
      do {
        const page = await this.client.listTools(cursor === undefined ? {} : { cursor }, {
          timeout: this.config.startTimeoutSeconds * 1000,
          ...(signal ? { signal } : {}),
        });
        for (const t of page.tools) {
          tools.push({ name: t.name, description: t.description ?? "", inputSchema: t.inputSchema });
        }
        cursor = page.nextCursor;
      } while (cursor !== undefined);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw new McpServerError(this.describe("could not list its tools", error), this.config.name, {
        cause: error,
      });
    }
    return tools;
  }

  /** Calls `name` (its name on the server) and returns the tool message content of its result. */
  async call(name: string, args: Record<string, unknown>, options: McpCallOptions): Promise<ToolResult> {
    let result: CallToolResult;
    try {
      // The SDK checks the result against MCP's schema: a malformed one is rejected as a ZodError.
      result = (await this.client.callTool({ name, arguments: args }, undefined, {
        timeout: options.timeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
      })) as CallToolResult;
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      throw this.callError(name, error, options.timeoutMs);
    }
    if (result.isError === true) {
      throw new McpToolError(mcpResultText(result) || "the tool reported an error", this.config.name, name);
    }
    return mcpResultContent(result);
  }

  /** Ends the connection: a stdio server's stdin is closed, then it is stopped if it lingers. */
  async close(): Promise<void> {
    this.ended = true;
    await this.client.close().catch(() => {});
  }

  private callError(name: string, error: unknown, timeoutMs: number): Error {
    const server = this.config.name;
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return new McpToolError(
        `MCP server "${server}" did not answer ${name} within ${timeoutMs / 1000} s`,
        server,
        name,
        { cause: error },
      );
    }
    if (isSchemaError(error)) {
      const issues = error.issues.map((i) => `${i.path.join(".") || "(result)"}: ${i.message}`).join("; ");
      return new McpToolError(
        `MCP server "${server}" returned a malformed result for ${name}: ${issues}`,
        server,
        name,
        {
          cause: error,
        },
      );
    }
    if (this.ended || (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)) {
      return new McpServerError(this.describe(`closed the connection during ${name}`, error), server, {
        cause: error,
      });
    }
    const detail = error instanceof Error ? error.message : String(error);
    return new McpToolError(`MCP server "${server}" failed ${name}: ${detail}`, server, name, {
      cause: error,
    });
  }

  /** `MCP server "x" <what>: <error>`, with the last line the server wrote to stderr. */
  private describe(what: string, error: unknown): string {
    const detail = error instanceof Error ? error.message : String(error);
    const lastLine = this.stderr.trim().split("\n").at(-1)?.trim();
    const where =
      this.config.type === "stdio" ? `its command: ${this.config.command}` : `its URL: ${this.config.url}`;
    return `MCP server "${this.config.name}" ${what} (${detail})${lastLine ? `; its last output: ${lastLine}` : ""}; check ${where}`;
  }
}

/** The SDK's schema check of a result failed (a ZodError of the SDK's own zod, so matched by shape). */
function isSchemaError(error: unknown): error is { issues: Array<{ path: PropertyKey[]; message: string }> } {
  return (
    error instanceof Error &&
    /ZodError$/.test(error.name) &&
    Array.isArray((error as { issues?: unknown }).issues)
  );
}
