/**
 * Versions of an environment: content-addressed by `contentHash`, labelled by `semver`, pointing at a
 * tarball in the blob store by its sha256. Both the hash and the label are unique per environment.
 */
import semver from "semver";
import type { Queryable } from "../db/database.ts";

/** A version as stored. */
export interface VersionRecord {
  id: number;
  envId: number;
  semver: string;
  contentHash: string;
  tarballSha256: string;
  /** npm's `dist.integrity`: `sha512-<base64>`. */
  tarballSha512: string;
  /** npm's `dist.shasum`: hex SHA-1 (legacy, but npm still reads it). */
  tarballSha1: string;
  tarballSize: number;
  fileCount: number;
  manifest: Record<string, unknown>;
  readme: string;
  pushedBy: string | null;
  createdAt: string;
}

/** What a push stores for a new version. */
export type NewVersion = Omit<VersionRecord, "id" | "createdAt" | "pushedBy"> & { pushedBy: number };

interface VersionRow {
  id: number;
  env_id: number;
  semver: string;
  content_hash: string;
  tarball_sha256: string;
  tarball_sha512: string;
  tarball_sha1: string;
  tarball_size: number;
  file_count: number;
  manifest: Record<string, unknown>;
  readme: string;
  pushed_by_name: string | null;
  created_at: Date;
}

const SELECT = `select v.*, u.name as pushed_by_name from versions v left join users u on u.id = v.pushed_by`;

const toVersion = (row: VersionRow): VersionRecord => ({
  id: row.id,
  envId: row.env_id,
  semver: row.semver,
  contentHash: row.content_hash,
  tarballSha256: row.tarball_sha256,
  tarballSha512: row.tarball_sha512,
  tarballSha1: row.tarball_sha1,
  tarballSize: row.tarball_size,
  fileCount: row.file_count,
  manifest: row.manifest,
  readme: row.readme,
  pushedBy: row.pushed_by_name,
  createdAt: row.created_at.toISOString(),
});

/**
 * Inserts `version` unless one with the same content exists; returns the stored version and whether
 * this call created it. A semver label taken by other content comes back as `taken`.
 */
export async function insertVersion(
  tx: Queryable,
  version: NewVersion,
): Promise<
  { type: "created" | "unchanged"; version: VersionRecord } | { type: "taken"; version: VersionRecord }
> {
  const same = await findVersionByHash(tx, version.envId, version.contentHash);
  if (same) return { type: "unchanged", version: same };
  const label = await tx.query<VersionRow>(`${SELECT} where v.env_id = $1 and v.semver = $2`, [
    version.envId,
    version.semver,
  ]);
  if (label[0]) return { type: "taken", version: toVersion(label[0]) };
  const rows = await tx.query<{ id: number }>(
    `insert into versions (env_id, semver, content_hash, tarball_sha256, tarball_sha512, tarball_sha1, tarball_size,
       file_count, manifest, readme, pushed_by)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     on conflict (env_id, content_hash) do nothing returning id`,
    [
      version.envId,
      version.semver,
      version.contentHash,
      version.tarballSha256,
      version.tarballSha512,
      version.tarballSha1,
      version.tarballSize,
      version.fileCount,
      JSON.stringify(version.manifest),
      version.readme,
      version.pushedBy,
    ],
  );
  const stored = await findVersionByHash(tx, version.envId, version.contentHash);
  return { type: rows[0] ? "created" : "unchanged", version: stored! };
}

/** The version of `envId` with exactly this content hash, or null. */
export async function findVersionByHash(
  db: Queryable,
  envId: number,
  hash: string,
): Promise<VersionRecord | null> {
  const rows = await db.query<VersionRow>(`${SELECT} where v.env_id = $1 and v.content_hash = $2`, [
    envId,
    hash,
  ]);
  return rows[0] ? toVersion(rows[0]) : null;
}

/** Every version of `envId`, newest push first. */
export async function listVersions(db: Queryable, envId: number): Promise<VersionRecord[]> {
  const rows = await db.query<VersionRow>(`${SELECT} where v.env_id = $1 order by v.id desc`, [envId]);
  return rows.map(toVersion);
}

/** The highest semver among `versions` (release versions above pre-releases of the same number). */
export function latestOf<T extends { semver: string }>(versions: readonly T[]): T | null {
  return versions.reduce<T | null>(
    (best, v) => (best === null || semver.gt(v.semver, best.semver) ? v : best),
    null,
  );
}

/** The highest semver of each of `envIds` that has a version (by environment id). */
export async function latestSemvers(db: Queryable, envIds: readonly number[]): Promise<Map<number, string>> {
  const latest = new Map<number, string>();
  if (envIds.length === 0) return latest;
  const rows = await db.query<{ env_id: number; semver: string }>(
    "select env_id, semver from versions where env_id = any($1::int[])",
    [envIds],
  );
  for (const id of envIds) {
    const semver = latestOf(rows.filter((v) => v.env_id === id))?.semver;
    if (semver !== undefined) latest.set(id, semver);
  }
  return latest;
}

/** What a search hit shows of a version: when and by whom it was pushed, and its package's links. */
export interface VersionSummary {
  envId: number;
  semver: string;
  createdAt: Date;
  /** The pusher's name; null once that user is gone. */
  pushedBy: string | null;
  /** package.json's `homepage` and `repository`, as they are (any JSON, or null when absent). */
  homepage: unknown;
  repository: unknown;
}

/** Every version of each of `envIds`, as a summary (no README, no manifest beyond its links). */
export async function listVersionSummaries(
  db: Queryable,
  envIds: readonly number[],
): Promise<VersionSummary[]> {
  const rows = await db.query<{
    env_id: number;
    semver: string;
    created_at: Date;
    pushed_by: string | null;
    homepage: unknown;
    repository: unknown;
  }>(
    `select v.env_id, v.semver, v.created_at, u.name as pushed_by,
       v.manifest->'homepage' as homepage, v.manifest->'repository' as repository
     from versions v left join users u on u.id = v.pushed_by where v.env_id = any($1::int[])`,
    [envIds],
  );
  return rows.map((r) => ({
    envId: r.env_id,
    semver: r.semver,
    createdAt: r.created_at,
    pushedBy: r.pushed_by,
    homepage: r.homepage,
    repository: r.repository,
  }));
}

/** Whether any version's tarball is the blob `sha256` (blobs are shared by identical tarballs). */
export async function isTarballUsed(db: Queryable, sha256: string): Promise<boolean> {
  const rows = await db.query("select 1 from versions where tarball_sha256 = $1 limit 1", [sha256]);
  return rows.length > 0;
}

/** Deletes a version (and, by cascade, its reports); true when the tarball is used by no other version. */
export async function deleteVersion(db: Queryable, version: VersionRecord): Promise<boolean> {
  await db.query("delete from versions where id = $1", [version.id]);
  return !(await isTarballUsed(db, version.tarballSha256));
}
