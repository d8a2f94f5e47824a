/** The `/envs` routes of the API: list and search, info, versions, push, inspect, download, delete. */
import { decodeCursor, paginate } from "../api/cursor.ts";
import type { Writer } from "../api/route-auth.ts";
import type { RouteTable } from "../api/route-table.ts";
import {
  Deleted,
  EnvInfo,
  EnvSummary,
  InspectQuery,
  InspectResult,
  ListEnvsQuery,
  PushQuery,
  PushResult,
  UpdateEnvRequest,
  VersionInfo,
} from "../api/schemas/env-schemas.ts";
import { PageQuery, pageOf } from "../api/schemas/envelope.ts";
import { tarballKey } from "../blobs/blob-store.ts";
import { HubError } from "../hub-error.ts";
import { deleteEnvironment, searchEnvironments, updateEnvironment } from "../store/environments-store.ts";
import { deleteVersion, latestSemvers } from "../store/versions-store.ts";
import { toEnvInfo, toEnvSummary, toVersionInfo } from "./api-views.ts";
import { dropUnusedTarball } from "./drop-unused-tarball.ts";
import { canWrite, invalidateEnv, versionOf, visibleSnapshot } from "./env-access.ts";
import type { HubContext } from "./hub-context.ts";
import { inspectVersion, tarballOf } from "./inspect-version.ts";
import { originOf } from "./origin.ts";
import { pushVersion } from "./push-version.ts";

const ENV = "/envs/{owner}/{name}";
const VERSION = `${ENV}/versions/{ref}`;

/** Registers the environment routes on `table`. */
export function addEnvRoutes(table: RouteTable): void {
  table.add(
    {
      method: "get",
      path: "/envs",
      summary: "List and search environments (newest first)",
      auth: "optional",
      query: ListEnvsQuery,
      response: pageOf(EnvSummary),
    },
    async (c, { user, query }) => {
      const hub = c.get("hub");
      const rows = await searchEnvironments(hub.db, {
        ...(query.q ? { query: query.q } : {}),
        ...(query.owner ? { owner: query.owner } : {}),
        ...(query.kind ? { kind: query.kind } : {}),
        viewer: user?.isAdmin ? null : (user?.userName ?? null),
        ...(query.cursor ? { afterId: decodeCursor(query.cursor) } : {}),
        limit: query.limit,
      });
      const { items, nextCursor } = paginate(rows, query.limit);
      const latest = await latestSemvers(
        hub.db,
        items.map((e) => e.id),
      );
      return {
        items: items.map((env) => toEnvSummary(env, latest.get(env.id) ?? null)),
        next_cursor: nextCursor,
      };
    },
  );

  table.add(
    {
      method: "get",
      path: ENV,
      summary: "An environment with its latest version and README",
      auth: "optional",
      response: EnvInfo,
    },
    async (c, { params, user }) => {
      const snapshot = await visibleSnapshot(c.get("hub"), user, params.owner, params.name);
      return toEnvInfo(snapshot.env, snapshot.latest, originOf(c));
    },
  );

  table.add(
    {
      method: "patch",
      path: ENV,
      summary: "Change an environment's visibility",
      auth: "write",
      body: UpdateEnvRequest,
      response: EnvInfo,
    },
    async (c, { params, user, body }) => {
      const hub = c.get("hub");
      const snapshot = await writableSnapshot(hub, user, params.owner, params.name);
      await updateEnvironment(hub.db, snapshot.env.id, {
        description: snapshot.env.description,
        tags: snapshot.env.tags,
        visibility: body.visibility,
      });
      invalidateEnv(hub, params.owner, params.name);
      return toEnvInfo({ ...snapshot.env, visibility: body.visibility }, snapshot.latest, originOf(c));
    },
  );

  table.add(
    {
      method: "delete",
      path: ENV,
      summary: "Delete an environment with all its versions and reports",
      auth: "write",
      response: Deleted,
    },
    async (c, { params, user }) => {
      const hub = c.get("hub");
      const snapshot = await writableSnapshot(hub, user, params.owner, params.name);
      await deleteEnvironment(hub.db, snapshot.env.id);
      for (const version of snapshot.versions) await dropUnusedTarball(hub, version.tarballSha256);
      invalidateEnv(hub, params.owner, params.name);
      return { deleted: `${params.owner}/${params.name}` };
    },
  );

  table.add(
    {
      method: "get",
      path: `${ENV}/versions`,
      summary: "Versions of an environment, newest push first",
      auth: "optional",
      query: PageQuery,
      response: pageOf(VersionInfo),
    },
    async (c, { params, user, query }) => {
      const snapshot = await visibleSnapshot(c.get("hub"), user, params.owner, params.name);
      const after = query.cursor ? decodeCursor(query.cursor) : Number.POSITIVE_INFINITY;
      const { items, nextCursor } = paginate(
        snapshot.versions.filter((v) => v.id < after),
        query.limit,
      );
      return { items: items.map(toVersionInfo), next_cursor: nextCursor };
    },
  );

  table.add(
    {
      method: "post",
      path: `${ENV}/versions`,
      summary: "Push a version (an npm-style .tgz); the same content again answers status unchanged",
      auth: "write",
      query: PushQuery,
      body: "tarball",
      response: PushResult,
      status: (result) => (result.status === "created" ? 201 : 200),
    },
    async (c, { params, user, query, upload }) => {
      const clientHash = c.req.header("x-vf-content-hash");
      return pushVersion(c.get("hub"), user, {
        owner: params.owner,
        name: params.name,
        upload,
        ...(query.visibility ? { visibility: query.visibility } : {}),
        ...(clientHash ? { clientHash } : {}),
      });
    },
  );

  table.add(
    {
      method: "get",
      path: VERSION,
      summary: "One version: latest, a semver, a content hash or an 8+ digit prefix",
      auth: "optional",
      response: VersionInfo,
    },
    async (c, { params, user }) => {
      const snapshot = await visibleSnapshot(c.get("hub"), user, params.owner, params.name);
      return toVersionInfo(versionOf(snapshot, params.ref));
    },
  );

  table.add(
    {
      method: "delete",
      path: VERSION,
      summary: "Delete one version (and its reports)",
      auth: "write",
      response: Deleted,
    },
    async (c, { params, user }) => {
      const hub = c.get("hub");
      const snapshot = await writableSnapshot(hub, user, params.owner, params.name);
      const version = versionOf(snapshot, params.ref);
      if (await deleteVersion(hub.db, version)) await hub.blobs.delete(tarballKey(version.tarballSha256));
      invalidateEnv(hub, params.owner, params.name);
      return { deleted: `${params.owner}/${params.name}@${version.semver}` };
    },
  );

  table.add(
    {
      method: "get",
      path: `${VERSION}/tarball`,
      summary: "Download a version's .tgz",
      auth: "optional",
      response: "binary",
    },
    async (c, { params, user }) => {
      const hub = c.get("hub");
      const snapshot = await visibleSnapshot(hub, user, params.owner, params.name);
      const version = versionOf(snapshot, params.ref);
      const bytes = await tarballOf(hub, version);
      return new Response(bytes, {
        headers: {
          "content-type": "application/octet-stream",
          "x-vf-content-hash": version.contentHash,
          "x-vf-tarball-sha256": version.tarballSha256,
          "x-vf-version": version.semver,
        },
      });
    },
  );

  table.add(
    {
      method: "get",
      path: `${VERSION}/files`,
      summary: "Browse a version's files on the server",
      auth: "optional",
      query: InspectQuery,
      response: InspectResult,
    },
    async (c, { params, user, query }) => {
      const hub = c.get("hub");
      const snapshot = await visibleSnapshot(hub, user, params.owner, params.name);
      return inspectVersion(hub, versionOf(snapshot, params.ref), query.path, query.max_bytes);
    },
  );
}

/** The snapshot of `owner/name` if `writer` may change it: `not_found` when hidden, else `forbidden`. */
async function writableSnapshot(hub: HubContext, writer: Writer, owner: string, name: string) {
  const snapshot = await visibleSnapshot(hub, writer, owner, name);
  if (!canWrite(owner, writer))
    throw new HubError("forbidden", `${writer.userName} cannot change ${owner}/${name}: only its owner can`);
  return snapshot;
}
