/** Browses the files of a stored version on the server: a folder listing, or a file capped at `maxBytes`. */
import type { InspectResult } from "../api/schemas/env-schemas.ts";
import { tarballKey } from "../blobs/blob-store.ts";
import { HubError } from "../hub-error.ts";
import type { PackageFile } from "../package/content-hash.ts";
import { unpackTarball } from "../package/package-tarball.ts";
import type { VersionRecord } from "../store/versions-store.ts";
import type { HubContext } from "./hub-context.ts";

/** The tarball bytes of `version`, or an `internal` error when the blob store lost them. */
export async function tarballOf(hub: HubContext, version: VersionRecord): Promise<Uint8Array> {
  const bytes = await hub.blobs.get(tarballKey(version.tarballSha256));
  if (!bytes) {
    throw new HubError(
      "internal",
      `the tarball of ${version.semver} is missing from the blob store: re-push it, or restore the store`,
    );
  }
  return bytes;
}

/** The folder or file at `path` ("" for the root) of `version`. */
export async function inspectVersion(
  hub: HubContext,
  version: VersionRecord,
  path: string,
  maxBytes: number,
): Promise<InspectResult> {
  const files = await hub.cache.get<PackageFile[]>(`files:${version.tarballSha256}`, async () =>
    unpackTarball(await tarballOf(hub, version), hub.limits),
  );
  const clean = path.replace(/^\/+|\/+$/g, "");
  const file = files.find((f) => f.path === clean);
  if (file) {
    const binary = file.data.subarray(0, 8000).includes(0);
    const shown = file.data.subarray(0, maxBytes);
    return {
      kind: "file",
      path: clean,
      size: file.data.length,
      encoding: binary ? "base64" : "utf8",
      content: Buffer.from(shown).toString(binary ? "base64" : "utf8"),
      truncated: shown.length < file.data.length,
    };
  }
  const prefix = clean === "" ? "" : `${clean}/`;
  const children = new Map<string, { type: "file" | "directory"; size: number }>();
  for (const f of files) {
    if (!f.path.startsWith(prefix)) continue;
    const [head, ...rest] = f.path.slice(prefix.length).split("/");
    const entry = children.get(head!) ?? { type: rest.length ? "directory" : "file", size: 0 };
    entry.size += f.data.length;
    children.set(head!, entry);
  }
  if (children.size === 0)
    throw new HubError(
      "not_found",
      `${clean} is not a file or folder of ${version.semver}: list the root first`,
    );
  return {
    kind: "directory",
    path: clean,
    entries: [...children.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, e]) => ({ name, path: prefix + name, type: e.type, size: e.size })),
  };
}
