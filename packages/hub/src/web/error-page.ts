/** The HTML page for an error on a web route (API and npm routes answer JSON instead). */
import type { Context } from "hono";
import type { HubError } from "../hub-error.ts";
import type { HubEnv } from "../server/hub-context.ts";
import { html } from "./html.ts";
import { layout } from "./layout.ts";

/** A page saying what went wrong, with the error's status. */
export function errorPage(c: Context<HubEnv>, error: HubError): Response {
  const body = html`<div class="card"><h1>${error.status === 404 ? "Not found" : "Something went wrong"}</h1>
<p>${error.message}</p><p><a href="/">Back to the environments</a></p></div>`;
  return c.html(layout({ title: "Error", viewer: c.get("principal") ?? null, body }), error.status as 404);
}
