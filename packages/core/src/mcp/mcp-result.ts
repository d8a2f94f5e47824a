/**
 * An MCP tool result as tool-message content: text parts become text (one string when all parts
 * are text), images become data-URL image parts, and what a chat model cannot take (audio,
 * resources) is described in a line of text. A result with only structured content gives its JSON.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolResult } from "../tools/tool.ts";

type Part = Exclude<ToolResult, string>[number];

/** The content the model reads for an MCP tool's result. */
export function mcpResultContent(result: CallToolResult): ToolResult {
  const parts = result.content.map(toPart);
  if (parts.length === 0) {
    return result.structuredContent === undefined ? "" : JSON.stringify(result.structuredContent);
  }
  if (parts.every((part) => part.type === "text")) return parts.map((part) => part.text).join("\n");
  return parts;
}

/** The text of a result's text parts, for an error's message. */
export function mcpResultText(result: CallToolResult): string {
  return result.content
    .map(toPart)
    .filter((part) => part.type === "text")
    .map((part) => part.text)
    .join("\n");
}

function toPart(block: CallToolResult["content"][number]): Part {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
      return { type: "image_url", image_url: { url: `data:${block.mimeType};base64,${block.data}` } };
    case "audio":
      return { type: "text", text: `[audio (${block.mimeType}) the model cannot hear]` };
    case "resource": {
      const resource = block.resource;
      return "text" in resource && typeof resource.text === "string"
        ? { type: "text", text: resource.text }
        : {
            type: "text",
            text: `[resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ""}]`,
          };
    }
    case "resource_link":
      return { type: "text", text: `[resource ${block.name}: ${block.uri}]` };
  }
}
