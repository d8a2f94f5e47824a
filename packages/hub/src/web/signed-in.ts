/**
 * The middleware of the web pages that need a signed-in browser: it hands the page its session, or
 * sends the browser to sign in and back. An API key is no session here: forms need the CSRF token.
 */
import { createMiddleware } from "hono/factory";
import type { HubEnv, Principal } from "../server/hub-context.ts";

/** A signed-in browser: its user and the session's CSRF token, which its forms must carry. */
export interface WebSession {
  viewer: Principal;
  csrf: string;
}

/** Hono's typing of a page behind `signedIn`: `c.get("session")` is set. */
export interface SignedInEnv {
  Variables: HubEnv["Variables"] & { session: WebSession };
}

/**
 * Sets `c.get("session")` for the page, or redirects to `/login?next=<this page>` without running
 * it. Use it before the page's handler: `app.get("/account", signedIn, (c) => ...)`.
 */
export const signedIn = createMiddleware<SignedInEnv>(async (c, next) => {
  const viewer = c.get("principal");
  if (viewer?.via.type !== "session") {
    return c.redirect(`/login?next=${encodeURIComponent(c.req.path + (new URL(c.req.url).search || ""))}`);
  }
  c.set("session", { viewer, csrf: viewer.via.csrfToken });
  await next();
});
