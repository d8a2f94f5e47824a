/**
 * The Hub's HTTP application: the JSON API under /api/v1 (with its OpenAPI document), the npm registry
 * protocol under /npm, and the web pages at the root, over one `HubContext`.
 */
import { Hono } from "hono";
import { openApiDocument } from "../api/openapi.ts";
import { RouteTable } from "../api/route-table.ts";
import { HubError } from "../hub-error.ts";
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
  const isMachinePath = (path: string) => path.startsWith("/api/") || path.startsWith("/npm/");
  app.onError((error, c) => {
    const hubError = asHubError(error);
    return isMachinePath(c.req.path) ? errorJson(c, hubError) : errorPage(c, hubError);
  });
  app.notFound((c) => {
    const error = new HubError("not_found", `no such page or route: ${c.req.method} ${c.req.path}`);
    return isMachinePath(c.req.path) ? errorJson(c, error) : errorPage(c, error);
  });
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
