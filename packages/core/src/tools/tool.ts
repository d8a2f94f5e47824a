/**
 * Tools are typed functions: a zod schema for the arguments, turned into the JSON-schema tool
 * definition models see. The function receives the parsed, validated arguments.
 */
import { z } from "zod";
import { AuthoringError } from "../errors.ts";

/** The OpenAI tool definition sent to the model. */
export const ToolDefinition = z.object({
  type: z.literal("function"),
  function: z.object({
    name: z.string(),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()),
    strict: z.boolean().optional(),
  }),
});
export type ToolDefinition = z.infer<typeof ToolDefinition>;

/** What a tool may return: text, or content parts (text and images) for multimodal results. */
export type ToolResult =
  | string
  | Array<{ type: "text"; text: string } | { type: "image_url"; image_url: { url: string } }>;

/** A typed function the model can call: name, description, zod parameters and `run`. */
export interface Tool<Args extends z.ZodObject = z.ZodObject, Ctx = unknown> {
  readonly name: string;
  readonly description: string;
  readonly parameters: Args;
  /**
   * The argument schema the model sees, when it was written in JSON Schema rather than zod (an MCP
   * server's tools): passed through as it is (but for `$schema`), while `parameters` only checks
   * that the arguments are an object and the tool's own server checks the rest.
   */
  readonly jsonSchema?: Record<string, unknown>;
  /** Runs the tool. `ctx` is what the environment hands it: in a ToolEnv, the rollout's state and signal. */
  run(args: z.infer<Args>, ctx: Ctx): ToolResult | Promise<ToolResult> | unknown;
}

/** What `tool` takes. */
export interface ToolOptions<Args extends z.ZodObject, Ctx> {
  name: string;
  description: string;
  parameters: Args;
  run: (args: z.infer<Args>, ctx: Ctx) => unknown;
}

/**
 * Define a tool.
 *
 * @example
 * const add = tool({
 *   name: "add",
 *   description: "Add two numbers.",
 *   parameters: z.object({ a: z.number().describe("first"), b: z.number().describe("second") }),
 *   run: ({ a, b }) => String(a + b),
 * });
 */
export function tool<Args extends z.ZodObject, Ctx = unknown>(
  options: ToolOptions<Args, Ctx>,
): Tool<Args, Ctx> {
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(options.name)) {
    throw new AuthoringError(`tool name "${options.name}" must match [a-zA-Z0-9_-]{1,64}: rename the tool`);
  }
  return { ...options };
}

/**
 * The JSON-schema definition of a tool, as sent to the model. The schema's `$schema` (the dialect's
 * URL, which zod and the MCP SDK's servers write) is left out: it tells the model nothing and costs
 * it tokens on every turn.
 */
export function toolDefinition(t: Tool): ToolDefinition {
  const schema =
    t.jsonSchema !== undefined
      ? { ...t.jsonSchema }
      : (z.toJSONSchema(t.parameters, { target: "draft-2020-12", io: "input" }) as Record<string, unknown>);
  delete schema.$schema;
  return {
    type: "function",
    function: { name: t.name, description: t.description, parameters: schema },
  };
}

/** Turns what a tool returned into tool-message content. */
export function toolResultContent(
  value: unknown,
): string | Array<{ type: "text"; text: string } | { type: "image_url"; image_url: { url: string } }> {
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every(isContentPart)) return value;
  if (value === undefined || value === null) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function isContentPart(
  v: unknown,
): v is { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } } {
  if (typeof v !== "object" || v === null) return false;
  const part = v as Record<string, unknown>;
  if (part.type === "text") return typeof part.text === "string";
  if (part.type === "image_url") {
    const image = part.image_url as Record<string, unknown> | undefined;
    return typeof image?.url === "string";
  }
  return false;
}
