/**
 * A report's page: what was run (environment version and arguments, model, an agent run's harness, sampling), the summary, and a rollout
 * browser where each rollout opens to what `vf view --web` shows of it (rollout/: conversation, tool
 * calls and results, an agent's branches, metrics, errors, token logprobs as ids; no scripts:
 * `<details>` elements).
 */

import { RolloutRecord } from "@vf-rl/core/results";
import { z } from "zod";
import type { ReportInfo, ReportRow } from "../api/schemas/report-schemas.ts";
import type { Principal } from "../server/hub-context.ts";
import { harnessCell } from "./agent-labels.ts";
import { argTags } from "./arg-tags.ts";
import { html, type SafeHtml } from "./html.ts";
import { layout } from "./layout.ts";
import { envIdLinks, ownerLink } from "./owner-page.ts";
import { formatNumber, rolloutHtml } from "./rollout/rollout-html.ts";

function rollout(row: ReportRow): SafeHtml {
  const parsed = RolloutRecord.safeParse(row.row);
  if (!parsed.success) {
    return html`<details><summary>#${row.index} · <span class="badge">unreadable row</span></summary><pre>${z.prettifyError(parsed.error)}</pre></details>`;
  }
  const record = parsed.data;
  const failure = record.error?.error ?? (record.trace?.errors[0]?.type || null);
  return html`<details><summary>#${row.index} · example ${record.example_id} · reward <strong>${formatNumber(record.reward)}</strong>
${failure ? html` <span class="badge">${failure}</span>` : ""} <span class="muted small">${record.stop_condition ?? ""}</span></summary>
${rolloutHtml(record)}</details>`;
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
