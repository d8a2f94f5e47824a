/**
 * The tools a model was offered, folded: each one's name and description, its parameters' JSON
 * schema folded again. An environment's few tools come from the row's `tool_defs`; an agent's from
 * its trace's first call (a program such as Claude Code offers dozens, with pages of text each).
 */
import { html, type SafeHtml } from "../html.ts";

/** What is read of a tool definition (OpenAI's function tool shape). */
export interface OfferedTool {
  function: { name: string; description?: string | undefined; parameters: Record<string, unknown> };
}

export function toolsHtml(tools: readonly OfferedTool[]): SafeHtml | string {
  if (tools.length === 0) return "";
  return html`<details class="tools"><summary class="small muted">${tools.length} tool${tools.length === 1 ? "" : "s"} offered</summary>
${tools.map(
  (
    tool,
  ) => html`<div class="tool"><code>${tool.function.name}</code>${tool.function.description ? html` <span class="small">${tool.function.description}</span>` : ""}
<details><summary class="small muted">parameters</summary><pre>${JSON.stringify(tool.function.parameters, null, 2)}</pre></details></div>`,
)}</details>`;
}
