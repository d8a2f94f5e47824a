/**
 * Calling a typed tool the way a model does: by name, with its arguments as JSON text. The text is
 * parsed and checked against the tool's zod schema before the tool runs; an unknown name, bad JSON
 * or arguments that do not fit come back as a `ToolParseError`, a tool that threw as a
 * `ToolCallError` (with what it threw as `cause`). ToolEnv's turns and a taskset's tools served to
 * an agent over MCP both call tools through here.
 */
import type { z } from "zod";
import { ToolCallError, ToolParseError } from "../errors.ts";
import type { ToolMessage } from "../messages/message.ts";
import { issueLines } from "../schema-issues.ts";
import { type Tool, toolResultContent } from "./tool.ts";

/** How a call ended: what the tool returned, or the error the model is told about. */
export type ToolCallOutcome = { ok: true; value: unknown } | { ok: false; error: Error; cause?: unknown };

/** Calls tool `name` of `tools` with `args` (JSON text; empty means `{}`), handing it `ctx`. */
export async function callTool<Ctx>(
  // biome-ignore lint/suspicious/noExplicitAny: tools of any argument schema
  tools: ReadonlyMap<string, Tool<z.ZodObject<any>, Ctx>>,
  name: string,
  args: string,
  ctx: Ctx,
): Promise<ToolCallOutcome> {
  const t = tools.get(name);
  if (!t) {
    const known = [...tools.keys()].join(", ") || "none";
    return { ok: false, error: new ToolParseError(`unknown tool "${name}"; available tools: ${known}`) };
  }
  let raw: unknown;
  try {
    raw = args.trim() === "" ? {} : JSON.parse(args);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, error: new ToolParseError(`arguments of ${name} are not valid JSON: ${detail}`) };
  }
  const parsed = t.parameters.safeParse(raw);
  if (!parsed.success) {
    const detail = issueLines(parsed.error, "(arguments)").join("; ");
    return {
      ok: false,
      error: new ToolParseError(`arguments of ${name} do not match its schema: ${detail}`),
    };
  }
  try {
    return { ok: true, value: await t.run(parsed.data, ctx) };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: new ToolCallError(`${name} failed: ${detail}`, { cause: error }),
      cause: error,
    };
  }
}

/** An outcome as the reply a caller reads: the tool's content, or `formatError`'s text marked as an error. */
export function toolReply(
  outcome: ToolCallOutcome,
  formatError: (error: Error) => string = (error) => `Error: ${error.message}`,
): { content: ToolMessage["content"]; isError: boolean } {
  return outcome.ok
    ? { content: toolResultContent(outcome.value), isError: false }
    : { content: formatError(outcome.error), isError: true };
}
