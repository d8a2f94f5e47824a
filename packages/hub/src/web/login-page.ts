/** The sign-in page and the page where a signed-in user approves a `vf login` from the terminal. */
import type { Principal } from "../server/hub-context.ts";
import { html } from "./html.ts";
import { layout } from "./layout.ts";

/** The sign-in form; `next` is where to go after. */
export function loginPage(options: { next: string; error?: string; name?: string }): string {
  const body = html`<div class="card" style="max-width:420px;margin:40px auto"><h1>Sign in</h1>
${options.error ? html`<p class="badge" role="alert">${options.error}</p>` : ""}
<form method="post" action="/login"><input type="hidden" name="next" value="${options.next}">
<p><input name="name" placeholder="user name" autocomplete="username" required value="${options.name ?? ""}" style="width:100%" aria-label="User name"></p>
<p><input name="password" type="password" placeholder="password" autocomplete="current-password" required style="width:100%" aria-label="Password"></p>
<button>Sign in</button></form>
<p class="small muted">No account? An admin creates one with <code>vf hub user create NAME</code>.</p></div>`;
  return layout({ title: "Sign in", viewer: null, body });
}

/** Asks the signed-in `viewer` to approve the login with `userCode` from `clientName`. */
export function deviceApprovalPage(options: {
  viewer: Principal;
  csrf: string;
  userCode: string;
  clientName: string;
}): string {
  const { viewer, csrf, userCode, clientName } = options;
  const body = html`<div class="card" style="max-width:520px;margin:40px auto"><h1>Approve a vf login</h1>
<p><strong>${clientName}</strong> asks for a new write key for <strong>${viewer.userName}</strong>.</p>
<p>Check that your terminal shows this code:</p><p class="secret" style="text-align:center;font-size:22px">${userCode}</p>
<form method="post" action="/login/device" style="display:flex;gap:8px"><input type="hidden" name="csrf" value="${csrf}">
<input type="hidden" name="code" value="${userCode}"><button name="decision" value="approve">Approve</button>
<button class="secondary" name="decision" value="deny">Deny</button></form></div>`;
  return layout({ title: "Approve login", viewer, body });
}

/** The result of an approval or denial. */
export function deviceDonePage(viewer: Principal, approved: boolean): string {
  const body = html`<div class="card" style="max-width:520px;margin:40px auto"><h1>${approved ? "Login approved" : "Login denied"}</h1>
<p>${approved ? "Return to your terminal: vf has its key." : "The terminal gets no key."}</p></div>`;
  return layout({ title: approved ? "Login approved" : "Login denied", viewer, body });
}
