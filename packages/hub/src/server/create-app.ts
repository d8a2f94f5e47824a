/**
 * The Hub's HTTP application: the JSON API under /api/v1 (with its OpenAPI document), the npm registry
 * protocol under /npm, and the web pages at the root, over one `HubContext`.
 */
import { type Context, Hono } from "hono";
import { refuseNulInUrl } from "../api/nul-characters.ts";
import { openApiDocument } from "../api/openapi.ts";
import { RouteTable } from "../api/route-table.ts";
import { HubError } from "../hub-error.ts";
import { npmErrorJson, npmRouteNotFound } from "../npm/npm-error.ts";
import { addNpmRoutes } from "../npm/npm-routes.ts";
import { addReportRoutes } from "../reports/report-routes.ts";
import { errorPage } from "../web/error-page.ts";
import { addWebRoutes } from "../web/web-routes.ts";
import { addAccountRoutes } from "./account-routes.ts";
import { addEnvRoutes } from "./env-routes.ts";
import { asHubError, errorJson } from "./error-response.ts";
import type { HubContext, HubEnv } from "./hub-context.ts";
import { resolvePrincipal } from "./principal.ts";

/** The version of the API, in its path and its OpenAPI document. */
export const API_BASE = "/api/v1";

/** The Hono app serving `hub`; test it in-process with `app.request()`. */
export function createHubApp(hub: HubContext): Hono<HubEnv> {
  const app = new Hono<HubEnv>();
  // Each side in its own shape: the API's envelope, npm's `{error: "message"}`, or an HTML page.
  const respond = (c: Context<HubEnv>, error: HubError) => {
    if (c.req.path.startsWith("/api/")) return errorJson(c, error);
    if (c.req.path.startsWith("/npm/")) return npmErrorJson(c, error);
    return errorPage(c, error);
  };
  app.onError((error, c) => respond(c, asHubError(error)));
  app.notFound((c) =>
    respond(
      c,
      c.req.path.startsWith("/npm/")
        ? npmRouteNotFound(c.req.method, c.req.path)
        : new HubError("not_found", `no such page or route: ${c.req.method} ${c.req.path}`),
    ),
  );
  app.use(refuseNulInUrl);
  app.use(async (c, next) => {
    c.set("hub", hub);
    c.set("principal", await resolvePrincipal(c));
    await next();
  });
  const table = new RouteTable(app, API_BASE);
  addAccountRoutes(table);
  addEnvRoutes(table);
  addReportRoutes(table);
  const document = openApiDocument(table, "1.0.0");
  app.get(`${API_BASE}/openapi.json`, (c) => c.json(document));
  addNpmRoutes(app);
  addWebRoutes(app);
  return app;
}
