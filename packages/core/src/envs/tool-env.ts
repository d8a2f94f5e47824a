/**
 * A multi-turn environment where the model calls typed tools. Each tool call in the model's turn is
 * parsed, validated against the tool's zod schema and run; the results go back as tool messages.
 * Bad JSON, a schema failure or a raising tool becomes a tool message holding the error, so the
 * model can recover, unless its class is listed in `stopErrors`: then the error is recorded and
 * the rollout stops (`has_error`), its completion kept. An error a tool raised is matched by its own
 * class too, and then recorded as itself rather than as the `ToolCallError` wrapping it. A turn without tool calls ends the rollout.
 * A tool that needs the rollout's own resources (a sandbox, a working folder) reads them from
 * `ctx.state.data`, typed by the environment's `Data`; the model sees only the tool's arguments.
 * Tools can also come from MCP servers (`mcpServers`): they are listed when the first rollout
 * begins, offered with the server's JSON schema, and their results, errors and timeouts come back
 * as tool messages like any tool's.
 *
 * @example
 * const env = new ToolEnv({ dataset, rubric, tools: [calculator], maxTurns: 6 });
 * const withMcp = new ToolEnv({ dataset, mcpServers: [{ type: "stdio", name: "wiki", command: "wiki-mcp" }] });
 */
import { z } from "zod";
import { AuthoringError, CancelledError } from "../errors.ts";
import { McpServerConfig, type McpServerInput } from "../mcp/mcp-server-config.ts";
import type { McpSession, McpTool, McpToolset } from "../mcp/mcp-toolset.ts";
import type { AssistantMessage, Messages, ToolCall, ToolMessage } from "../messages/message.ts";
import { createState, type RolloutInput, type RolloutState, recordError } from "../rollout/rollout-state.ts";
import { issueLines } from "../schema-issues.ts";
import { callTool, toolReply } from "../tools/call-tool.ts";
import { type Tool, type ToolDefinition, toolDefinition, toolResultContent } from "../tools/tool.ts";
import {
  type DataOptions,
  type EnvResponse,
  MultiTurnEnv,
  type MultiTurnEnvOptions,
} from "./multi-turn-env.ts";

/**
 * What a tool's `run` receives as its second argument inside a ToolEnv: the rollout's state, whose
 * `data` holds the environment's per-rollout fields, and its abort signal. A tool that works in
 * several environments names only the fields it reads, e.g. `ToolCallContext<{ folder: string }>`.
 */
export interface ToolCallContext<Data = Record<string, unknown>> {
  state: RolloutState<Data>;
  signal: AbortSignal;
}

// biome-ignore lint/suspicious/noExplicitAny: tools of any argument schema share one list
export type AnyTool<Data = Record<string, unknown>> = Tool<z.ZodObject<any>, ToolCallContext<Data>>;

/** An error class, for `stopErrors`. */
// biome-ignore lint/suspicious/noExplicitAny: constructors of any signature
export type ErrorClass = abstract new (...args: any[]) => Error;

/** Options of `ToolEnv`: the tools, and which tool errors end the rollout. */
export interface ToolEnvOptions<Data> extends MultiTurnEnvOptions<Data> {
  /** The environment's own tools; default none. */
  tools?: AnyTool<Data>[];
  /**
   * MCP servers whose tools are offered too: stdio commands started per environment or per rollout
   * (`scope`), or HTTP servers by URL. They start at the first rollout and stop at `teardown()`
   * (per-rollout ones when their rollout ends).
   */
  mcpServers?: McpServerInput[];
  /** Error classes that stop the rollout instead of going back to the model (e.g. `ToolParseError`). */
  stopErrors?: ErrorClass[];
  /** Turns a tool error into the text the model sees; default `Error: <message>`. */
  formatError?: (error: Error) => string;
}

/** An environment's tools opened outside a rollout (see `ToolEnv.openToolSession`). */
export interface ToolSession {
  /** Every tool's definition, as the model would be offered them. */
  definitions: ToolDefinition[];
  /**
   * Calls a tool as the model would: its name and its arguments as JSON text. A failure comes back
   * as the text the model would read, with `isError`.
   */
  call(name: string, args: string): Promise<{ content: ToolMessage["content"]; isError: boolean }>;
  /** Runs the session's cleanups (a per-rollout sandbox or MCP server goes). */
  close(): Promise<void>;
}

/** The model calls typed tools until it answers without one; tool errors go back to the model as tool messages. */
export class ToolEnv<Data = Record<string, unknown>> extends MultiTurnEnv<Data> {
  protected readonly tools = new Map<string, AnyTool<Data>>();
  private readonly stopErrors: ErrorClass[];
  private readonly formatError: (error: Error) => string;
  private definitions: ToolDefinition[] | undefined;
  private readonly mcpServers: McpServerConfig[];
  private mcp: Promise<McpToolset> | undefined;
  private mcpListed = false;
  private readonly mcpSessions = new WeakMap<RolloutState<Data>, Promise<McpSession>>();

  constructor(options: ToolEnvOptions<Data> & DataOptions<Data>) {
    super({ ...options, maxTurns: options.maxTurns ?? 10 });
    this.declareMonitorMetric(
      "total_tool_calls",
      "ToolEnv (the calls of every tool)",
      (state) => toolCalls(state).length,
    );
    for (const t of options.tools ?? []) this.addTool(t);
    this.mcpServers = parseMcpServers(options.mcpServers ?? []);
    if (this.mcpServers.length > 0) {
      this.addCleanup("mcp_servers", async (state) => {
        const session = this.mcpSessions.get(state);
        this.mcpSessions.delete(state);
        await (await session)?.close();
      });
      this.addTeardown("mcp_servers", async () => {
        const toolset = this.mcp;
        this.mcp = undefined;
        await (await toolset)?.close();
      });
    }
    this.stopErrors = options.stopErrors ?? [];
    this.formatError = options.formatError ?? ((error) => `Error: ${error.message}`);
    this.addStopCondition("no_tools_called", (state) => {
      const last = state.completion[state.completion.length - 1];
      return last?.role === "assistant" && !last.tool_calls?.length;
    });
  }

  /** Adds a tool. */
  addTool(t: AnyTool<Data>): void {
    if (this.tools.has(t.name))
      throw new AuthoringError(`a tool named "${t.name}" is already registered: give each tool its own name`);
    this.declareMonitorMetric(
      `${t.name}_calls`,
      `ToolEnv (the calls of tool ${t.name})`,
      (state) => toolCalls(state).filter((call) => call.function.name === t.name).length,
    );
    this.tools.set(t.name, t);
    this.definitions = undefined;
  }

  /**
   * Every tool's definition, the MCP servers' included: starts the shared servers (and asks each
   * per-rollout one) when they have not been listed yet. `toolDefs()` has them once listed.
   */
  async listTools(signal?: AbortSignal): Promise<ToolDefinition[]> {
    await this.loadMcpTools(signal);
    return this.toolDefs();
  }

  /**
   * The tools outside a rollout, as a rollout of `input` has them: its data made by `initialData`,
   * the MCP servers' tools listed, and its cleanups run by `close()`. Calls get the same checks as
   * the model's. `vf env tools --mcp` serves this to any MCP client.
   */
  async openToolSession(input: RolloutInput): Promise<ToolSession> {
    const abort = new AbortController();
    const data = await this.initialData(input);
    const state = createState<Data>(input, {
      model: "",
      sampling: {},
      toolDefs: [],
      signal: abort.signal,
      data,
    });
    try {
      await this.prepareRollout(state);
    } catch (error) {
      await this.runCleanups(state);
      throw error;
    }
    return {
      definitions: this.toolDefs(),
      call: async (name, args) =>
        toolReply(await callTool(this.tools, name, args, { state, signal: state.signal }), this.formatError),
      close: async () => {
        abort.abort(new CancelledError("the tool session was closed"));
        await this.runCleanups(state);
      },
    };
  }

  protected override async prepareRollout(state: RolloutState<Data>): Promise<void> {
    await super.prepareRollout(state);
    if (this.mcpServers.length === 0) return;
    await this.loadMcpTools(state.signal);
    // Now that the MCP servers' tools are listed (a row that names its own keeps them).
    state.toolDefs = this.toolDefsFor(state.input);
  }

  private async loadMcpTools(signal?: AbortSignal): Promise<void> {
    if (this.mcpServers.length === 0 || this.mcpListed) return;
    const toolset = await this.toolset();
    const tools = await toolset.tools([...this.tools.keys()], signal);
    if (this.mcpListed) return;
    this.mcpListed = true;
    for (const t of tools) this.addTool(this.mcpTool(t));
  }

  private toolset(): Promise<McpToolset> {
    // The MCP SDK is loaded only by environments that have MCP servers.
    this.mcp ??= import("../mcp/mcp-toolset.ts").then((m) => new m.McpToolset(this.mcpServers));
    return this.mcp;
  }

  /** A vf tool that forwards its calls to the MCP server, through the rollout's session. */
  private mcpTool(t: McpTool): AnyTool<Data> {
    return {
      name: t.name,
      description: t.description,
      parameters: z.looseObject({}),
      jsonSchema: t.inputSchema,
      run: async (args, { state, signal }) => {
        let session = this.mcpSessions.get(state);
        if (session === undefined) {
          session = this.toolset().then((toolset) => toolset.session());
          this.mcpSessions.set(state, session);
        }
        return (await session).call(t, args, signal);
      },
    };
  }

  override toolDefs(): ToolDefinition[] {
    this.definitions ??= [...this.tools.values()].map((t) => toolDefinition(t));
    return this.definitions;
  }

  protected async envResponse(messages: Messages, state: RolloutState<Data>): Promise<EnvResponse> {
    const last = messages[messages.length - 1] as AssistantMessage;
    const replies: ToolMessage[] = [];
    for (const call of last.tool_calls ?? []) {
      const { name, arguments: args } = call.function;
      const result = await callTool(this.tools, name, args, { state, signal: state.signal });
      if (result.ok) {
        replies.push({ role: "tool", tool_call_id: call.id, content: toolResultContent(result.value) });
        continue;
      }
      // A class matched through the cause is recorded as the cause itself, so the rollout keeps its
      // class and retryability (a SandboxError stays an infrastructure error, retried by maxRetries).
      const stop = this.stopErrors.some((cls) => result.error instanceof cls)
        ? result.error
        : this.stopErrors.some((cls) => result.cause instanceof cls)
          ? result.cause
          : undefined;
      if (stop !== undefined) {
        recordError(state, stop);
        return replies;
      }
      replies.push({ role: "tool", tool_call_id: call.id, content: this.formatError(result.error) });
    }
    return replies;
  }
}

function parseMcpServers(servers: readonly McpServerInput[]): McpServerConfig[] {
  const parsed = servers.map((server, i) => {
    const result = McpServerConfig.safeParse(server);
    if (!result.success) {
      const name = typeof server?.name === "string" ? `"${server.name}"` : `number ${i + 1}`;
      throw new AuthoringError(`MCP server ${name}: ${issueLines(result.error, "(server)").join("; ")}`);
    }
    return result.data;
  });
  const names = parsed.map((server) => server.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) {
    throw new AuthoringError(`two MCP servers are named "${twice}": give each server its own name`);
  }
  return parsed;
}

/** Every tool call the model made in a rollout, in order. */
function toolCalls<Data>(state: RolloutState<Data>): ToolCall[] {
  return state.completion.flatMap((message) =>
    message.role === "assistant" ? (message.tool_calls ?? []) : [],
  );
}
