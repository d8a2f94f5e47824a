/**
 * A multi-turn environment where the model calls typed tools. Each tool call in the model's turn is
 * parsed, validated against the tool's zod schema and run; the results go back as tool messages.
 * Bad JSON, a schema failure or a raising tool becomes a tool message holding the error, so the
 * model can recover, unless its class is listed in `stopErrors`: then the error is recorded and
 * the rollout stops (`has_error`), its completion kept. An error a tool raised is matched by its own
 * class too, and then recorded as itself rather than as the `ToolCallError` wrapping it. A turn without tool calls ends the rollout.
 * A tool that needs the rollout's own resources (a sandbox, a working folder) reads them from
 * `ctx.state.data`, typed by the environment's `Data`; the model sees only the tool's arguments.
 *
 * @example
 * const env = new ToolEnv({ dataset, rubric, tools: [calculator], maxTurns: 6 });
 */
import type { z } from "zod";
import { AuthoringError, ToolCallError, ToolParseError } from "../errors.ts";
import type { AssistantMessage, Messages, ToolCall, ToolMessage } from "../messages/message.ts";
import { type RolloutState, recordError } from "../rollout/rollout-state.ts";
import { issueLines } from "../schema-issues.ts";
import { type Tool, type ToolDefinition, toolDefinition, toolResultContent } from "../tools/tool.ts";
import { type EnvResponse, MultiTurnEnv, type MultiTurnEnvOptions } from "./multi-turn-env.ts";

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
  tools: AnyTool<Data>[];
  /** Error classes that stop the rollout instead of going back to the model (e.g. `ToolParseError`). */
  stopErrors?: ErrorClass[];
  /** Turns a tool error into the text the model sees; default `Error: <message>`. */
  formatError?: (error: Error) => string;
}

/** The model calls typed tools until it answers without one; tool errors go back to the model as tool messages. */
export class ToolEnv<Data = Record<string, unknown>> extends MultiTurnEnv<Data> {
  protected readonly tools = new Map<string, AnyTool<Data>>();
  private readonly stopErrors: ErrorClass[];
  private readonly formatError: (error: Error) => string;
  private definitions: ToolDefinition[] | undefined;

  constructor(options: ToolEnvOptions<Data>) {
    super({ ...options, maxTurns: options.maxTurns ?? 10 });
    for (const t of options.tools) this.addTool(t);
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
    this.tools.set(t.name, t);
    this.definitions = undefined;
  }

  override toolDefs(): ToolDefinition[] {
    this.definitions ??= [...this.tools.values()].map((t) => toolDefinition(t));
    return this.definitions;
  }

  override monitorMetrics(state: RolloutState<Data>): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const name of this.tools.keys()) counts[`${name}_calls`] = 0;
    let total = 0;
    for (const message of state.completion) {
      if (message.role !== "assistant") continue;
      for (const call of message.tool_calls ?? []) {
        total++;
        const key = `${call.function.name}_calls`;
        if (key in counts) counts[key]! += 1;
      }
    }
    return { ...super.monitorMetrics(state), total_tool_calls: total, ...counts };
  }

  override metricNames(): string[] {
    return [...super.metricNames(), "total_tool_calls", ...[...this.tools.keys()].map((n) => `${n}_calls`)];
  }

  protected async envResponse(messages: Messages, state: RolloutState<Data>): Promise<EnvResponse> {
    const last = messages[messages.length - 1] as AssistantMessage;
    const replies: ToolMessage[] = [];
    for (const call of last.tool_calls ?? []) {
      const result = await this.callTool(call, state);
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

  private async callTool(
    call: ToolCall,
    state: RolloutState<Data>,
  ): Promise<{ ok: true; value: unknown } | { ok: false; error: Error; cause?: unknown }> {
    const name = call.function.name;
    const t = this.tools.get(name);
    if (!t) {
      const known = [...this.tools.keys()].join(", ") || "none";
      return { ok: false, error: new ToolParseError(`unknown tool "${name}"; available tools: ${known}`) };
    }
    let raw: unknown;
    try {
      raw = call.function.arguments.trim() === "" ? {} : JSON.parse(call.function.arguments);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      return { ok: false, error: new ToolParseError(`arguments of ${name} are not valid JSON: ${detail}`) };
    }
    const args = t.parameters.safeParse(raw);
    if (!args.success) return { ok: false, error: new ToolParseError(schemaMessage(name, args.error)) };
    try {
      return { ok: true, value: await t.run(args.data, { state, signal: state.signal }) };
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      return {
        ok: false,
        error: new ToolCallError(`${name} failed: ${detail}`, { cause: error }),
        cause: error,
      };
    }
  }
}

function schemaMessage(name: string, error: z.ZodError): string {
  return `arguments of ${name} do not match its schema: ${issueLines(error, "(arguments)").join("; ")}`;
}
