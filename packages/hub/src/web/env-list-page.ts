/**
 * The home page: environments (and tasksets, badged) visible to the viewer, newest first, with text
 * search and paging.
 */
import type { EnvKind, EnvSummary } from "../api/schemas/env-schemas.ts";
import type { Principal } from "../server/hub-context.ts";
import { kindBadge } from "./agent-labels.ts";
import { html } from "./html.ts";
import { layout } from "./layout.ts";
import { envIdLinks } from "./owner-page.ts";

/** A link to the list of `kind` (null: both) for `query`, shown as current when it is `current`. */
function kindLink(label: string, kind: EnvKind | null, current: EnvKind | null, query: string) {
  const params = new URLSearchParams({ ...(query ? { q: query } : {}), ...(kind ? { kind } : {}) });
  const href = params.size ? `/?${params}` : "/";
  return kind === current ? html`<strong>${label}</strong>` : html`<a href="${href}">${label}</a>`;
}

/**
 * The list page for `envs` found by `query` (of `kind` only, when given); `nextCursor` links the next
 * page.
 */
export function envListPage(options: {
  viewer: Principal | null;
  envs: EnvSummary[];
  query: string;
  kind: EnvKind | null;
  nextCursor: string | null;
}): string {
  const { envs, query, kind, nextCursor } = options;
  const rows = envs.map(
    (e) => html`<tr><td><strong>${envIdLinks(e.id)}</strong>${kindBadge(e.kind)}
${e.visibility === "private" ? html` <span class="badge">private</span>` : ""}
<div class="muted small">${e.description}</div></td>
<td>${e.tags.map((t) => html`<span class="tag">${t}</span>`)}</td>
<td>${e.latest_version ?? "—"}</td><td class="small muted">${e.updated_at.slice(0, 10)}</td></tr>`,
  );
  const next = nextCursor
    ? `/?${new URLSearchParams({ ...(query ? { q: query } : {}), ...(kind ? { kind } : {}), cursor: nextCursor })}`
    : null;
  const kinds = html`<p class="small" id="kinds">Show: ${kindLink("all", null, kind, query)} · ${kindLink("environments", "environment", kind, query)} · ${kindLink("tasksets", "taskset", kind, query)}</p>`;
  const noun = kind === "taskset" ? "Tasksets" : "Environments";
  const body = html`<div class="card"><h1>${query ? html`${noun} matching “${query}”` : noun}</h1>
<p class="muted">Install any of them with <code>vf env install owner/name</code>.</p>${kinds}
${
  envs.length
    ? html`<table><thead><tr><th>Environment</th><th>Tags</th><th>Latest</th><th>Updated</th></tr></thead><tbody>${rows}</tbody></table>`
    : html`<p>No ${noun.toLowerCase()}${query ? " match this search" : " yet: push one with vf env push"}.</p>`
}
${next ? html`<p><a href="${next}">Next page →</a></p>` : ""}</div>`;
  return layout({ title: query ? `Search: ${query}` : "Environments", viewer: options.viewer, body, query });
}
