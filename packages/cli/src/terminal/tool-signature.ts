/**
 * A tool definition as one line people read: `search_pages(query: string, limit?: integer)`. The
 * definition may come from a saved file of any origin, so a schema of an unexpected shape shows
 * as `any` rather than failing.
 */

/** What a signature reads of a tool definition (OpenAI's function tool shape). */
interface FunctionTool {
  function: { name: string; parameters: Record<string, unknown> };
}

/** The tool's name and its arguments (an optional one marked `?`), e.g. `calculate(expression: string)`. */
export function toolSignature(tool: FunctionTool): string {
  const { name, parameters } = tool.function;
  const properties = isObject(parameters.properties) ? parameters.properties : {};
  const required = new Set(Array.isArray(parameters.required) ? parameters.required : []);
  const args = Object.entries(properties)
    .map(([arg, schema]) => `${arg}${required.has(arg) ? "" : "?"}: ${typeName(schema)}`)
    .join(", ");
  return `${name}(${args})`;
}

/** A JSON Schema's type: `string`, `string | null` for a list of types, `any` when it names none. */
function typeName(schema: unknown): string {
  const type = isObject(schema) ? schema.type : undefined;
  if (typeof type === "string") return type;
  if (Array.isArray(type) && type.length > 0) return type.map(String).join(" | ");
  return "any";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
