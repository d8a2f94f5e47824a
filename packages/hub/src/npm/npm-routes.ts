/**
 * The npm registry protocol under /npm: `GET /npm/@owner%2fname` (or `/npm/@owner/name`) answers the
 * packument, `GET /npm/@owner/name/-/name-1.0.0.tgz` the tarball. npm sends
 * `Authorization: Bearer <key>` from `//host/npm/:_authToken=` in .npmrc; private environments are
 * 404 to everyone else, as in the API. `GET /npm/-/v1/search` answers `npm search` (npm-search.ts).
 */
import type { Hono } from "hono";
import { parseWith } from "../api/route-table.ts";
import { HubError } from "../hub-error.ts";
import { versionOf, visibleSnapshot } from "../server/env-access.ts";
import type { HubEnv } from "../server/hub-context.ts";
import { tarballOf } from "../server/inspect-version.ts";
import { originOf } from "../server/origin.ts";
import { npmRouteNotFound } from "./npm-error.ts";
import { NpmSearchQuery, searchPackages } from "./npm-search.ts";
import { buildPackument, tarballFileName } from "./packument.ts";

const PACKUMENT = /^@([a-z0-9][a-z0-9-]*)\/([a-z0-9][a-z0-9._-]*)$/;
const TARBALL = /^@([a-z0-9][a-z0-9-]*)\/([a-z0-9][a-z0-9._-]*)\/-\/([^/]+\.tgz)$/;

/** Registers the /npm routes on `app`. */
export function addNpmRoutes(app: Hono<HubEnv>): void {
  app.get("/npm/-/v1/search", async (c) => {
    const query = parseWith(NpmSearchQuery, c.req.query(), "query");
    const result = await searchPackages(c.get("hub").db, query, {
      viewer: c.get("principal")?.userName ?? null,
      origin: originOf(c),
    });
    return c.json(result);
  });

  app.get("/npm/*", async (c) => {
    const hub = c.get("hub");
    const raw = new URL(c.req.url).pathname.slice("/npm/".length);
    let path: string;
    try {
      path = decodeURIComponent(raw);
    } catch {
      throw new HubError("bad_request", "the package path is not valid URL encoding");
    }
    const packument = PACKUMENT.exec(path);
    if (packument) {
      const [, owner, name] = packument as unknown as [string, string, string];
      const snapshot = await visibleSnapshot(hub, c.get("principal"), owner, name);
      const registry = `${originOf(c)}/npm`;
      const body = await hub.cache.get(`npm:@${owner}/${name}:${registry}`, async () =>
        JSON.stringify(buildPackument(snapshot, registry)),
      );
      return c.body(body, 200, { "content-type": "application/json" });
    }
    const tarball = TARBALL.exec(path);
    if (tarball) {
      const [, owner, name, file] = tarball as unknown as [string, string, string, string];
      const snapshot = await visibleSnapshot(hub, c.get("principal"), owner, name);
      const version = snapshot.versions.find((v) => tarballFileName(name, v.semver) === file);
      const bytes = await tarballOf(hub, version ?? versionOf(snapshot, file));
      return c.body(bytes as Uint8Array<ArrayBuffer>, 200, { "content-type": "application/octet-stream" });
    }
    throw path.startsWith("-/")
      ? npmRouteNotFound("GET", `/npm/${path}`)
      : new HubError("not_found", `no package at /npm/${path}: packages are @owner/name`);
  });
}
