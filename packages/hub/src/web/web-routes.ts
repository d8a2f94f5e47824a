/**
 * The Hub's web pages, rendered on the server from the same stores as the API: the environment list
 * and search, an owner's page, an environment's page, a report's page, sign-in (rate-limited), the account page with
 * keys, and the approval page of `vf login`. Forms carry the session's CSRF token.
 */
import type { Context, Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { decodeCursor, paginate } from "../api/cursor.ts";
import { EnvKind } from "../api/schemas/env-schemas.ts";
import { decideDeviceLogin, findPendingLogin } from "../auth/device-login.ts";
import { issueApiKey } from "../auth/issue-api-key.ts";
import { verifyPassword } from "../auth/password.ts";
import { HubError } from "../hub-error.ts";
import { toLeaderboardGroup, toReportInfo, visibleReport } from "../reports/report-routes.ts";
import { toApiKeyInfo, toEnvInfo, toEnvSummary, toVersionInfo } from "../server/api-views.ts";
import { visibleSnapshot } from "../server/env-access.ts";
import type { HubContext, HubEnv, Principal } from "../server/hub-context.ts";
import { originOf } from "../server/origin.ts";
import { clientAddress, SESSION_COOKIE } from "../server/principal.ts";
import { readForm } from "../server/request-body.ts";
import { listApiKeys, revokeApiKey } from "../store/api-keys-store.ts";
import { searchEnvironments } from "../store/environments-store.ts";
import { leaderboard, listReports, listRows } from "../store/reports-store.ts";
import { createSession, deleteSession } from "../store/sessions-store.ts";
import { findUserByName, USER_NAME } from "../store/users-store.ts";
import { latestOf } from "../store/versions-store.ts";
import { accountPage } from "./account-page.ts";
import { envListPage } from "./env-list-page.ts";
import { envPage } from "./env-page.ts";
import { deviceApprovalPage, deviceDonePage, loginPage } from "./login-page.ts";
import { ownerPage } from "./owner-page.ts";
import { loadOwnerProfile } from "./owner-profile.ts";
import { reportPage } from "./report-page.ts";
import { type SignedInEnv, signedIn } from "./signed-in.ts";

/** The page's form, if it carries the session's CSRF token; else `forbidden`. */
async function formWithCsrf(c: Context<SignedInEnv>): Promise<Record<string, string>> {
  const form = await readForm(c);
  if (form.csrf !== c.get("session").csrf)
    throw new HubError(
      "forbidden",
      "the form expired or came from another site: reload the page and try again",
    );
  return form;
}

const SIGN_IN_BASE = "http://hub.invalid";

/**
 * Where to send a browser after sign-in: `next` when it names a page of this Hub, else `/`. It is
 * resolved as a browser resolves a Location (the WHATWG URL parser, which reads `\` as `/` and drops
 * tabs and newlines), and the redirect carries that resolved path, not the text it came as, so what
 * is checked is what the browser visits.
 */
function safeNext(next: string | undefined): string {
  if (!next) return "/";
  let url: URL;
  try {
    url = new URL(next, `${SIGN_IN_BASE}/`);
  } catch {
    return "/";
  }
  // A path that starts with `//` once resolved (`/.//host`) would name another host as a Location.
  if (url.origin !== SIGN_IN_BASE || url.pathname.startsWith("//")) return "/";
  return url.pathname + url.search + url.hash;
}

/** Registers the web pages on `app`. */
export function addWebRoutes(app: Hono<HubEnv>): void {
  app.get("/", async (c) => {
    const hub = c.get("hub");
    const viewer = c.get("principal");
    const query = (c.req.query("q") ?? "").slice(0, 200);
    const cursor = c.req.query("cursor");
    // Anything but a known kind shows both, as no filter does.
    const parsedKind = EnvKind.safeParse(c.req.query("kind"));
    const kind = parsedKind.success ? parsedKind.data : null;
    const rows = await searchEnvironments(hub.db, {
      query,
      ...(kind ? { kind } : {}),
      viewer: viewer?.isAdmin ? null : (viewer?.userName ?? null),
      ...(cursor ? { afterId: decodeCursor(cursor) } : {}),
      limit: 25,
    });
    const { items, nextCursor } = paginate(rows, 25);
    const latest = await Promise.all(items.map((e) => visibleSnapshot(hub, viewer, e.owner, e.name)));
    const envs = items.map((e, i) => toEnvSummary(e, latest[i]!.latest?.semver ?? null));
    return c.html(envListPage({ viewer, envs, query, kind, nextCursor }));
  });

  app.get("/login", (c) => c.html(loginPage({ next: safeNext(c.req.query("next")) })));

  app.post("/login", async (c) => {
    const hub = c.get("hub");
    const form = await readForm(c);
    const name = (form.name ?? "").trim().toLowerCase();
    const next = safeNext(form.next);
    const address = clientAddress(c);
    const wait = hub.authLimits.signInWait(name, address);
    if (wait > 0) {
      return c.html(
        loginPage({
          next,
          name,
          error: `Too many failed sign-ins: wait ${Math.ceil(wait / 60)} min, then try again.`,
        }),
        429,
        {
          "retry-after": String(wait),
        },
      );
    }
    const user = await findUserByName(hub.db, name);
    const ok = user?.passwordHash ? await verifyPassword(form.password ?? "", user.passwordHash) : false;
    if (!user || !ok) {
      hub.authLimits.signInFailed(name, address);
      return c.html(loginPage({ next, name, error: "Wrong user name or password." }), 401);
    }
    hub.authLimits.signInSucceeded(name, address);
    const token = await createSession(hub.db, user.id);
    setCookie(c, SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: "Lax",
      path: "/",
      secure: originOf(c).startsWith("https:"),
      maxAge: 14 * 24 * 3600,
    });
    return c.redirect(next, 303);
  });

  app.post("/logout", signedIn, async (c) => {
    await formWithCsrf(c);
    const token = getCookie(c, SESSION_COOKIE);
    if (token) await deleteSession(c.get("hub").db, token);
    deleteCookie(c, SESSION_COOKIE, { path: "/" });
    return c.redirect("/", 303);
  });

  app.get("/login/device", signedIn, async (c) => {
    const session = c.get("session");
    const userCode = (c.req.query("code") ?? "").toUpperCase();
    const pending = await findPendingLogin(c.get("hub").db, userCode);
    if (!pending)
      throw new HubError(
        "not_found",
        `login code ${userCode || "(none)"} is unknown or expired: run vf login again`,
      );
    return c.html(deviceApprovalPage({ ...session, userCode, clientName: pending.clientName }));
  });

  app.post("/login/device", signedIn, async (c) => {
    const session = c.get("session");
    const form = await formWithCsrf(c);
    const approve = form.decision === "approve";
    await decideDeviceLogin(c.get("hub").db, form.code ?? "", session.viewer.userId, approve);
    return c.html(deviceDonePage(session.viewer, approve));
  });

  app.get("/account", signedIn, async (c) => {
    const session = c.get("session");
    return c.html(accountPage({ ...session, keys: await keysOf(c.get("hub"), session.viewer) }));
  });

  app.post("/account/keys", signedIn, async (c) => {
    const session = c.get("session");
    const form = await formWithCsrf(c);
    const name = (form.name ?? "").trim().slice(0, 100) || "unnamed";
    const scope = form.scope === "read" ? "read" : "write";
    const created = await issueApiKey(c.get("hub").db, session.viewer.userId, name, scope);
    // Rendered in the reply, never redirected to: the key must not land in a URL or a later page.
    return c.html(
      accountPage({ ...session, keys: await keysOf(c.get("hub"), session.viewer), created }),
      201,
      {
        "cache-control": "no-store",
      },
    );
  });

  app.post("/account/keys/:prefix/revoke", signedIn, async (c) => {
    const session = c.get("session");
    await formWithCsrf(c);
    await revokeApiKey(c.get("hub").db, session.viewer.userId, c.req.param("prefix"));
    c.get("hub").cache.invalidate("key:");
    return c.redirect("/account", 303);
  });

  app.get("/reports/:id", async (c) => {
    const report = await visibleReport(c.get("hub"), c.get("principal"), c.req.param("id"));
    const cursor = c.req.query("cursor");
    const rows = await listRows(c.get("hub").db, report.id, 50, cursor ? decodeCursor(cursor) : -1);
    const { items, nextCursor } = paginate(rows, 50);
    return c.html(
      reportPage({
        viewer: c.get("principal"),
        report: toReportInfo(report),
        rows: items.map((r) => ({ index: r.id, row: r.row })),
        nextCursor,
      }),
    );
  });

  // Registered after every fixed path above, so those win over an owner's name.
  app.get("/:owner", async (c) => {
    const viewer = c.get("principal");
    const owner = c.req.param("owner");
    const profile = USER_NAME.test(owner)
      ? await loadOwnerProfile(c.get("hub").db, { owner, viewer: viewer?.userName ?? null })
      : null;
    if (!profile) throw new HubError("not_found", `there is no user named ${owner} on this Hub`);
    return c.html(ownerPage({ viewer, profile }));
  });

  app.get("/:owner/:name", async (c) => {
    const hub = c.get("hub");
    const viewer = c.get("principal");
    const snapshot = await visibleSnapshot(hub, viewer, c.req.param("owner"), c.req.param("name"));
    const [board, reports] = await Promise.all([
      leaderboard(hub.db, snapshot.env.id),
      listReports(hub.db, snapshot.env.id, 20),
    ]);
    return c.html(
      envPage({
        viewer,
        env: toEnvInfo(snapshot.env, latestOf(snapshot.versions), originOf(c)),
        versions: snapshot.versions.map(toVersionInfo),
        leaderboard: board.map(toLeaderboardGroup),
        reports: reports.slice(0, 20).map(toReportInfo),
      }),
    );
  });
}

async function keysOf(hub: HubContext, viewer: Principal) {
  return (await listApiKeys(hub.db, viewer.userId)).map(toApiKeyInfo);
}
