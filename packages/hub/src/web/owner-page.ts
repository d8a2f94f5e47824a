/** An owner's page (`/<owner>`): their environments, the eval reports they uploaded, and their ranks. */
import type { Principal } from "../server/hub-context.ts";
import { kindBadge } from "./agent-labels.ts";
import { argTags } from "./arg-tags.ts";
import { html, type SafeHtml } from "./html.ts";
import { layout } from "./layout.ts";
import type { OwnerProfile } from "./owner-profile.ts";

/** A link to `owner`'s page. */
export function ownerLink(owner: string): SafeHtml {
  return html`<a href="/${owner}">${owner}</a>`;
}

/** `owner/name` with the owner linked to their page and the name to the environment's page. */
export function envIdLinks(id: string): SafeHtml {
  const [owner, name] = id.split("/") as [string, string];
  return html`${ownerLink(owner)}/<a href="/${owner}/${name}">${name}</a>`;
}

const reward = (value: number | null) => (value === null ? "—" : value.toFixed(3));

/** The HTML of `profile`'s page. */
export function ownerPage(options: { viewer: Principal | null; profile: OwnerProfile }): string {
  const { owner, environments, reports, ranks } = options.profile;
  const envRows = environments.map(
    (e) => html`<tr><td><a href="/${owner}/${e.name}"><strong>${e.name}</strong></a>${kindBadge(e.kind)}
${e.visibility === "private" ? html` <span class="badge">private</span>` : ""}
<div class="muted small">${e.description}</div></td><td>${e.latestVersion ?? "—"}</td></tr>`,
  );
  const reportRows = reports.map(
    (r) => html`<tr><td><a href="/reports/${r.id}">#${r.id}</a></td><td>${envIdLinks(r.env)}@${r.version}</td>
<td>${r.model}${r.harness === null ? "" : html` <span class="small muted">through</span> <code>${r.harness}</code>`}</td><td class="small">${argTags(r.envArgs)}</td><td>${reward(r.meanReward)}${r.status === "complete" ? "" : html` <span class="small muted">${r.status}</span>`}</td>
<td class="small muted nowrap">${r.createdAt.slice(0, 10)}</td></tr>`,
  );
  const rankRows = ranks.map(
    (
      r,
    ) => html`<tr><td>${envIdLinks(r.env)}</td><td class="small">${argTags(r.envArgs)}</td><td><strong>#${r.rank}</strong> <span class="muted">of ${r.of}</span></td>
<td><a href="/reports/${r.bestReportId}">${reward(r.bestReward)}</a></td></tr>`,
  );
  const body = html`<div class="card"><h1>${owner}</h1>
<p class="muted">${environments.length} environment${environments.length === 1 ? "" : "s"} · ${reports.length} report${reports.length === 1 ? "" : "s"}</p></div>
<div class="grid"><div>
<div class="card" id="environments"><h2>Environments</h2>${
    environments.length
      ? html`<table><thead><tr><th>Environment</th><th>Latest</th></tr></thead><tbody>${envRows}</tbody></table>`
      : html`<p class="muted">No environments.</p>`
  }${options.profile.moreEnvironments ? html`<p class="small muted">Showing the first ${environments.length}.</p>` : ""}</div>
<div class="card" id="reports"><h2>Eval reports</h2>${
    reports.length
      ? html`<table><thead><tr><th>Report</th><th>Environment</th><th>Model</th><th>Arguments</th><th>Mean reward</th><th>Date</th></tr></thead><tbody>${reportRows}</tbody></table>`
      : html`<p class="muted">No reports.</p>`
  }${options.profile.moreReports ? html`<p class="small muted">Showing the newest ${reports.length}.</p>` : ""}</div></div>
<div><div class="card" id="ranks"><h2>Leaderboard positions</h2>${
    ranks.length
      ? html`<p class="small muted">Their best report among each environment's complete reports with the same arguments.</p>
<table><thead><tr><th>Environment</th><th>Arguments</th><th>Rank</th><th>Best</th></tr></thead><tbody>${rankRows}</tbody></table>`
      : html`<p class="muted">No complete reports yet.</p>`
  }</div></div></div>`;
  return layout({ title: owner, viewer: options.viewer, body });
}
