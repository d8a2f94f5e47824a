/**
 * Looks environments up as a given caller sees them: a private environment exists only for its owner
 * (and admins); for everyone else it is `not_found`, exactly like one that never existed.
 */
import { HubError, notFound } from "../hub-error.ts";
import { type EnvironmentRecord, findEnvironment } from "../store/environments-store.ts";
import { latestOf, listVersions, type VersionRecord } from "../store/versions-store.ts";
import type { HubContext, Principal } from "./hub-context.ts";

/** An environment with its versions (newest push first) and its latest (highest semver) version. */
export interface EnvSnapshot {
  env: EnvironmentRecord;
  versions: VersionRecord[];
  latest: VersionRecord | null;
}

/** Whether `viewer` may see `env`. */
export function canSee(
  env: Pick<EnvironmentRecord, "owner" | "visibility">,
  viewer: Principal | null,
): boolean {
  return (
    env.visibility === "public" || (viewer !== null && (viewer.userName === env.owner || viewer.isAdmin))
  );
}

/** Whether `viewer` may push to or delete from `owner`'s environments. */
export function canWrite(owner: string, viewer: Principal): boolean {
  return viewer.scope === "write" && (viewer.userName === owner || viewer.isAdmin);
}

/** The snapshot of `owner/name` (cached), or null when it does not exist. */
export function loadSnapshot(hub: HubContext, owner: string, name: string): Promise<EnvSnapshot | null> {
  return hub.cache.get(`env:${owner}/${name}`, async () => {
    const env = await findEnvironment(hub.db, owner, name);
    if (!env) return null;
    const versions = await listVersions(hub.db, env.id);
    return { env, versions, latest: latestOf(versions) };
  });
}

/** The snapshot of `owner/name` if `viewer` may see it, else `not_found`. */
export async function visibleSnapshot(
  hub: HubContext,
  viewer: Principal | null,
  owner: string,
  name: string,
): Promise<EnvSnapshot> {
  const snapshot = await loadSnapshot(hub, owner, name);
  if (!snapshot || !canSee(snapshot.env, viewer)) throw notFound(`environment ${owner}/${name}`);
  return snapshot;
}

/** The version `ref` (latest, semver, hash or 8+ digit hash prefix) of a snapshot, else `not_found`. */
export function versionOf(snapshot: EnvSnapshot, ref: string): VersionRecord {
  const id = `${snapshot.env.owner}/${snapshot.env.name}`;
  let found: VersionRecord | null | undefined;
  if (ref === "latest") found = snapshot.latest;
  else if (/^[0-9a-f]{8,64}$/.test(ref)) {
    const matches = snapshot.versions.filter((v) => v.contentHash.startsWith(ref));
    found = matches.length === 1 ? matches[0] : undefined;
  }
  found ??= snapshot.versions.find((v) => v.semver === ref);
  if (!found) {
    const known = snapshot.versions.map((v) => v.semver).join(", ") || "none yet";
    throw new HubError(
      "not_found",
      `version "${ref}" of ${id} was not found: pick one of ${known}, or latest`,
    );
  }
  return found;
}

/** Forgets cached reads of `owner/name` after a change. */
export function invalidateEnv(hub: HubContext, owner: string, name: string): void {
  hub.cache.invalidate(`env:${owner}/${name}`);
  hub.cache.invalidate(`npm:@${owner}/${name}`);
}
