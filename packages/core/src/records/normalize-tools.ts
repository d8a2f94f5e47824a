/**
 * Tool definitions as verifiers saved them over time: OpenAI's `{type: "function", function: {...}}`
 * up to 0.1.10, then (0.1.11 on, its provider-neutral `Tool`) flat `{name, description, parameters,
 * strict}`. Both become vf's `ToolDefinition` (OpenAI's shape).
 */
import { isJsonObject, withoutNulls } from "./json-object.ts";

/** Each tool in OpenAI's shape; anything unrecognised is left as it was, for validation to report. */
export function normalizeTools(tools: unknown): unknown {
  if (!Array.isArray(tools)) return tools;
  return tools.map((tool) => {
    if (!isJsonObject(tool)) return tool;
    if (isJsonObject(tool.function)) {
      return { ...tool, type: "function", function: withoutNulls(tool.function) };
    }
    if (typeof tool.name !== "string") return tool;
    return {
      type: "function",
      function: withoutNulls({
        name: tool.name,
        description: tool.description ?? null,
        parameters: tool.parameters ?? {},
        strict: tool.strict ?? null,
      }),
    };
  });
}
