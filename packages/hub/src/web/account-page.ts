/** The account page: your API keys (prefixes only), a form to create one (shown once), revoke buttons. */
import type { ApiKeyInfo, CreatedKey } from "../api/schemas/account-schemas.ts";
import type { Principal } from "../server/hub-context.ts";
import { html } from "./html.ts";
import { layout } from "./layout.ts";

/** The HTML of the account page; `created` is a key just made, shown this once. */
export function accountPage(options: {
  viewer: Principal;
  csrf: string;
  keys: ApiKeyInfo[];
  created?: CreatedKey;
}): string {
  const { viewer, csrf, keys, created } = options;
  const rows = keys.map(
    (k) => html`<tr><td><code>${k.prefix}…</code></td><td>${k.name}</td><td>${k.scope}</td>
<td class="small muted">${k.created_at.slice(0, 10)}</td><td class="small muted">${k.last_used_at?.slice(0, 10) ?? "never"}</td>
<td>${
      k.revoked_at
        ? html`<span class="muted small">revoked ${k.revoked_at.slice(0, 10)}</span>`
        : html`<form method="post" action="/account/keys/${k.prefix}/revoke"><input type="hidden" name="csrf" value="${csrf}"><button class="secondary">Revoke</button></form>`
    }</td></tr>`,
  );
  const body = html`${
    created
      ? html`<div class="notice"><strong>Your new key “${created.name}” (${created.scope}).</strong> Copy it now: it will not be shown again.
<div class="secret" id="new-key">${created.key}</div><p class="small">Use it with <code>vf login --key …</code> or <code>export VF_API_KEY=…</code>.</p></div>`
      : ""
  }
<div class="card"><h1>${viewer.userName}</h1><form method="post" action="/logout"><input type="hidden" name="csrf" value="${csrf}"><button class="secondary">Sign out</button></form></div>
<div class="card"><h2>API keys</h2>
${keys.length ? html`<table><thead><tr><th>Prefix</th><th>Name</th><th>Scope</th><th>Created</th><th>Last used</th><th></th></tr></thead><tbody>${rows}</tbody></table>` : html`<p class="muted">No keys yet.</p>`}
<h2 style="margin-top:16px">Create a key</h2>
<form method="post" action="/account/keys"><input type="hidden" name="csrf" value="${csrf}">
<input name="name" placeholder="e.g. laptop" required maxlength="100" aria-label="Key name">
<select name="scope" aria-label="Scope"><option value="write">write (push, upload)</option><option value="read">read (install private)</option></select>
<button>Create key</button></form></div>`;
  return layout({ title: "Account", viewer, body });
}
