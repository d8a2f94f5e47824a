/**
 * The tools the model was offered, one signature each (`name(arg: type, opt?: type)`) with its
 * description under it: whole for an environment's few tools; only its first line for an agent's,
 * whose program offers many with pages of instructions each (Claude Code's run to hundreds of lines).
 */
import { toolSignature } from "../../terminal/tool-signature.ts";
import type { Push } from "./styled-lines.ts";

/** What the lines read of a tool definition. */
export interface OfferedTool {
  function: { name: string; description?: string | undefined; parameters: Record<string, unknown> };
}

export function toolLines(
  tools: readonly OfferedTool[],
  push: Push,
  options: { heading: string; firstLineOnly: boolean },
): void {
  if (tools.length === 0) return;
  push("heading", `── ${options.heading} (${tools.length}) ──`);
  for (const tool of tools) {
    push("tool", toolSignature(tool), "  ");
    const description = tool.function.description?.trim() ?? "";
    const shown = options.firstLineOnly ? firstLine(description) : description;
    if (shown) push("dim", shown, "      ");
  }
}

function firstLine(text: string): string {
  const [line = "", ...rest] = text.split("\n");
  return rest.some((more) => more.trim()) ? `${line} …` : line;
}
