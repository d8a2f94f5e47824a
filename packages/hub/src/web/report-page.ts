/**
 * A report's page: what was run (environment version and arguments, model, an agent run's harness, sampling), the summary, and a rollout
 * browser where each rollout opens to its prompt, completion messages and tool calls (no scripts:
 * `<details>` elements).
 */
import type { ReportInfo, ReportRow } from "../api/schemas/report-schemas.ts";
import type { Principal } from "../server/hub-context.ts";
import { harnessCell } from "./agent-labels.ts";
import { argTags } from "./arg-tags.ts";
import { html, type SafeHtml } from "./html.ts";
import { layout } from "./layout.ts";
import { envIdLinks, ownerLink } from "./owner-page.ts";

interface ShownMessage {
  role?: string;
  content?: unknown;
  tool_calls?: { function?: { name?: string; arguments?: string } }[];
  tool_call_id?: string;
}

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .map((part) => (typeof part?.text === "string" ? part.text : `[${part?.type ?? "part"}]`))
      .join("\n");
  return content === null || content === undefined ? "" : JSON.stringify(content);
}

function message(m: ShownMessage): SafeHtml {
  const role = m.role ?? "?";
  const calls = (m.tool_calls ?? []).map(
    (call) =>
      html`<div class="small"><strong>tool call</strong> <code>${call.function?.name ?? "?"}</code><pre>${call.function?.arguments ?? ""}</pre></div>`,
  );
  const text = contentText(m.content);
  return html`<div class="msg ${["user", "assistant", "tool", "system"].includes(role) ? role : ""}"><div class="role">${role}${m.tool_call_id ? html` <code class="small">${m.tool_call_id}</code>` : ""}</div>
${text ? html`<pre>${text}</pre>` : ""}${calls}</div>`;
}

function rollout(row: ReportRow): SafeHtml {
  const r = row.row as Record<string, unknown>;
  const reward = typeof r.reward === "number" ? r.reward.toFixed(3) : "?";
  const metrics = Object.entries((r.metrics as Record<string, number>) ?? {}).map(
    ([k, v]) => html`<span class="tag">${k}: ${Number(v).toFixed(3)}</span>`,
  );
  const error = r.error as { error?: string; message?: string } | null | undefined;
  return html`<details><summary>#${row.index} · example ${String(r.example_id ?? "?")} · reward <strong>${reward}</strong>
${error ? html` <span class="badge">${error.error ?? "error"}</span>` : ""} <span class="muted small">${String(r.stop_condition ?? "")}</span></summary>
<p>${metrics}</p>${error ? html`<pre>${error.message ?? ""}</pre>` : ""}
<h2 class="small muted">Prompt</h2>${((r.prompt as ShownMessage[]) ?? []).map(message)}
<h2 class="small muted">Completion</h2>${((r.completion as ShownMessage[]) ?? []).map(message)}
${r.answer ? html`<p class="small"><strong>Answer:</strong> ${String(r.answer)}</p>` : ""}</details>`;
}

/** The HTML of a report's page with its first `rows`; `nextCursor` links more. */
export function reportPage(options: {
  viewer: Principal | null;
  report: ReportInfo;
  rows: ReportRow[];
  nextCursor: string | null;
}): string {
  const { report, rows, nextCursor } = options;
  const body = html`<div class="card"><h1>Report #${report.id}</h1>
<p>${envIdLinks(report.env)}@${report.version} · <code title="${report.content_hash}">${report.content_hash.slice(0, 12)}</code> · model <strong>${report.model}</strong></p>
<table><tbody>
<tr><th>Mean reward</th><td>${report.avg_reward === null ? "—" : report.avg_reward.toFixed(4)}</td></tr>
<tr><th>Rollouts</th><td>${report.rows_received} of ${report.row_count} (${report.status})</td></tr>
<tr><th>Environment arguments</th><td id="env-args">${argTags(report.env_args)}</td></tr>
${report.harness === null ? "" : html`<tr><th>Harness</th><td id="harness">${harnessCell(report.harness)}${typeof report.metadata.runtime === "string" ? html` <span class="small muted">in the ${report.metadata.runtime} runtime</span>` : ""}</td></tr>`}
<tr><th>Sampling</th><td>${argTags(report.sampling_args)}</td></tr>
<tr><th>Run</th><td><code>${report.run_id}</code> uploaded by ${ownerLink(report.uploaded_by)} on ${report.created_at.slice(0, 10)}</td></tr>
</tbody></table></div>
<div class="card"><h2>Rollouts</h2>${rows.length ? rows.map(rollout) : html`<p class="muted">No rows uploaded.</p>`}
${nextCursor ? html`<p><a href="/reports/${report.id}?cursor=${nextCursor}">More rollouts →</a></p>` : ""}</div>`;
  return layout({ title: `Report #${report.id}`, viewer: options.viewer, body });
}
