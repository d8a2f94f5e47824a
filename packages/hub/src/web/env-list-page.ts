/**
 * The home page: environments (and tasksets, badged) visible to the viewer, newest first, with text
 * search and paging.
 */
import type { EnvSummary } from "../api/schemas/env-schemas.ts";
import type { Principal } from "../server/hub-context.ts";
import { kindBadge } from "./agent-labels.ts";
import { html } from "./html.ts";
import { layout } from "./layout.ts";
import { envIdLinks } from "./owner-page.ts";

/** The list page for `envs` found by `query`; `nextCursor` links the next page. */
export function envListPage(options: {
  viewer: Principal | null;
  envs: EnvSummary[];
  query: string;
  nextCursor: string | null;
}): string {
  const { envs, query, nextCursor } = options;
  const rows = envs.map(
    (e) => html`<tr><td><strong>${envIdLinks(e.id)}</strong>${kindBadge(e.kind)}
${e.visibility === "private" ? html` <span class="badge">private</span>` : ""}
<div class="muted small">${e.description}</div></td>
<td>${e.tags.map((t) => html`<span class="tag">${t}</span>`)}</td>
<td>${e.latest_version ?? "—"}</td><td class="small muted">${e.updated_at.slice(0, 10)}</td></tr>`,
  );
  const next = nextCursor
    ? `/?${new URLSearchParams({ ...(query ? { q: query } : {}), cursor: nextCursor })}`
    : null;
  const body = html`<div class="card"><h1>${query ? html`Environments matching “${query}”` : "Environments"}</h1>
<p class="muted">Install any of them with <code>vf env install owner/name</code>.</p>
${
  envs.length
    ? html`<table><thead><tr><th>Environment</th><th>Tags</th><th>Latest</th><th>Updated</th></tr></thead><tbody>${rows}</tbody></table>`
    : html`<p>No environments${query ? " match this search" : " yet: push one with vf env push"}.</p>`
}
${next ? html`<p><a href="${next}">Next page →</a></p>` : ""}</div>`;
  return layout({ title: query ? `Search: ${query}` : "Environments", viewer: options.viewer, body, query });
}
