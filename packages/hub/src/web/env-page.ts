/**
 * An environment's page: README, install and eval commands, versions, the leaderboard with its chart,
 * reports. A taskset's is badged, its eval command names a harness, and its leaderboard ranks each
 * model with the harness it worked through.
 */
import type { EnvInfo, VersionInfo } from "../api/schemas/env-schemas.ts";
import type { LeaderboardGroup, ReportInfo } from "../api/schemas/report-schemas.ts";
import type { Principal } from "../server/hub-context.ts";
import { evalCommand, harnessCell, kindBadge } from "./agent-labels.ts";
import { argTags } from "./arg-tags.ts";
import { html, type SafeHtml } from "./html.ts";
import { layout } from "./layout.ts";
import { renderMarkdown } from "./markdown.ts";
import { ownerLink } from "./owner-page.ts";
import { rewardChart } from "./reward-chart.ts";

/** What the page shows. */
export interface EnvPageData {
  viewer: Principal | null;
  env: EnvInfo;
  versions: VersionInfo[];
  /** One board per set of environment arguments, the defaults first. */
  leaderboard: LeaderboardGroup[];
  reports: ReportInfo[];
}

/**
 * One set of environment arguments' leaderboard: its arguments, a chart and the models ranked. Runs
 * with other arguments measured another task, so each set has its own. Where any run was an agent's,
 * a Harness column says which program each model worked through (a model through two harnesses is
 * two lines).
 */
function board(group: LeaderboardGroup): SafeHtml {
  const agents = group.entries.some((e) => e.harness !== null);
  const rows = group.entries.map(
    (
      e,
      i,
    ) => html`<tr><td>${i + 1}</td><td>${e.model}</td>${agents ? html`<td class="harness">${harnessCell(e.harness)}</td>` : ""}<td>${e.best_reward.toFixed(3)}</td><td>${e.mean_reward.toFixed(3)}</td>
<td>${e.reports}</td><td><a href="/reports/${e.best_report_id}">best run</a></td></tr>`,
  );
  const chart = rewardChart(
    group.entries.map((e) => ({
      label: e.harness === null ? e.model : `${e.model} · ${e.harness}`,
      mean: e.mean_reward,
      best: e.best_reward,
    })),
  );
  return html`<section class="board"><h3 class="small">Environment arguments: ${argTags(group.env_args, "defaults")}</h3>${chart}
<table><thead><tr><th>#</th><th>Model</th>${agents ? html`<th>Harness</th>` : ""}<th>Best</th><th>Mean</th><th>Reports</th><th></th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

/** The HTML of an environment's page. */
export function envPage(data: EnvPageData): string {
  const { env, versions, leaderboard, reports } = data;
  const versionRows = versions.map(
    (
      v,
    ) => html`<tr><td><strong>${v.semver}</strong> <code title="${v.content_hash}">${v.content_hash.slice(0, 12)}</code>
<div class="small muted">${v.file_count} files · ${(v.size / 1024).toFixed(1)} KiB · ${v.created_at.slice(0, 10)} by ${v.pushed_by ? ownerLink(v.pushed_by) : "?"}</div></td></tr>`,
  );
  const agents = reports.some((r) => r.harness !== null);
  const reportRows = reports.map(
    (
      r,
    ) => html`<tr><td><a href="/reports/${r.id}">#${r.id}</a></td><td>${r.model}</td>${agents ? html`<td>${harnessCell(r.harness)}</td>` : ""}<td>${r.version}</td>
<td class="small">${argTags(r.env_args)}</td><td>${r.avg_reward === null ? "—" : r.avg_reward.toFixed(3)}</td><td>${r.row_count}</td><td>${ownerLink(r.uploaded_by)}</td><td class="small muted">${r.status}</td></tr>`,
  );
  const body = html`<div class="card"><h1>${ownerLink(env.owner)}/${env.name}${kindBadge(env.kind)} ${env.visibility === "private" ? html`<span class="badge">private</span>` : ""}</h1>
<p class="muted">${env.description}</p><p>${env.tags.map((t) => html`<span class="tag">${t}</span>`)}</p></div>
<div class="grid"><div>
<div class="card readme"><h2>README</h2>${env.readme ? renderMarkdown(env.readme) : html`<p class="muted">This version has no README.md.</p>`}</div>
<div class="card"><h2>Leaderboard</h2>${
    leaderboard.length
      ? leaderboard.map(board)
      : html`<p class="muted">No complete reports yet: <code>${evalCommand(env.id, env.kind, true)}</code>.</p>`
  }</div>
<div class="card"><h2>Reports</h2>${
    reports.length
      ? html`<table><thead><tr><th>Report</th><th>Model</th>${agents ? html`<th>Harness</th>` : ""}<th>Version</th><th>Arguments</th><th>Reward</th><th>Rollouts</th><th>By</th><th>Status</th></tr></thead><tbody>${reportRows}</tbody></table>`
      : html`<p class="muted">None yet.</p>`
  }</div></div>
<div><div class="card"><h2>Install</h2><pre>${env.install.vf}</pre><p class="small muted">or with npm:</p><pre>${env.install.npm}</pre>
<p class="small muted">then evaluate it${env.kind === "taskset" ? " through a harness (bash, claude-code, codex, ...)" : ""}:</p><pre id="eval-command">${evalCommand(env.id, env.kind)}</pre>
${env.latest ? html`<p class="small">Latest: <strong>${env.latest.semver}</strong> · <code>${env.latest.content_hash.slice(0, 12)}</code></p>` : ""}</div>
<div class="card"><h2>Versions</h2><table><tbody>${versionRows}</tbody></table></div></div></div>`;
  return layout({ title: env.id, viewer: data.viewer, body });
}
