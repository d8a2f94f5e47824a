/**
 * What an owner's page shows, read as one viewer sees it: the owner's environments with their latest
 * version, the eval reports they uploaded, and where their best report stands on each environment.
 * A private environment, and every report on one, is shown only to that environment's owner.
 */
import type { Queryable } from "../db/database.ts";
import { type EnvKind, listOwnerEnvironments, type Visibility } from "../store/environments-store.ts";
import { listUploadedReports, rankBestReports } from "../store/reports-store.ts";
import { findUserByName } from "../store/users-store.ts";
import { latestSemvers } from "../store/versions-store.ts";

/** Rows of each list read at most; the page says when there are more. */
export const OWNER_LIST_LIMIT = 100;

/** One of the owner's environments. */
export interface OwnerEnvironment {
  name: string;
  /** What its latest version holds: an environment or a taskset. */
  kind: EnvKind;
  visibility: Visibility;
  description: string;
  /** Highest semver pushed, null before the first push. */
  latestVersion: string | null;
}

/** One report the owner uploaded. */
export interface OwnerReport {
  id: number;
  /** `owner/name` of the environment it measured (anyone's, not only the owner's). */
  env: string;
  version: string;
  model: string;
  /** The harness of an agent run; null: none. */
  harness: string | null;
  /** The run's environment arguments; `{}` means the defaults. */
  envArgs: Record<string, unknown>;
  /** Null until the upload is complete. */
  meanReward: number | null;
  status: "uploading" | "complete";
  createdAt: string;
}

/**
 * Where the owner's best complete report ranks among the complete reports of one environment run
 * with the same environment arguments (runs with other arguments measured another task).
 */
export interface OwnerRank {
  env: string;
  /** The environment arguments of the reports ranked together; `{}` means the defaults. */
  envArgs: Record<string, unknown>;
  /** 1 + the number of reports with a strictly higher mean reward (ties share a rank). */
  rank: number;
  /** Complete reports of the environment with these arguments. */
  of: number;
  bestReward: number;
  bestReportId: number;
}

/** The owner's page data; lists hold up to `OWNER_LIST_LIMIT` rows, `more*` say when they were cut. */
export interface OwnerProfile {
  owner: string;
  environments: OwnerEnvironment[];
  moreEnvironments: boolean;
  reports: OwnerReport[];
  moreReports: boolean;
  ranks: OwnerRank[];
}

/** Options of `loadOwnerProfile`. */
export interface OwnerProfileOptions {
  owner: string;
  /** The signed-in user's name, null for a visitor: only they see their own private environments. */
  viewer: string | null;
}

/** The owner's page as `viewer` sees it, or null when no such user or visible environment exists. */
export async function loadOwnerProfile(
  db: Queryable,
  options: OwnerProfileOptions,
): Promise<OwnerProfile | null> {
  const { owner, viewer } = options;
  const user = await findUserByName(db, owner);
  const envRows = await listOwnerEnvironments(db, owner, viewer, OWNER_LIST_LIMIT + 1);
  if (!user && envRows.length === 0) return null;
  const shownEnvs = envRows.slice(0, OWNER_LIST_LIMIT);
  const latest = await latestSemvers(
    db,
    shownEnvs.map((e) => e.id),
  );
  const environments = shownEnvs.map((e) => ({
    name: e.name,
    kind: e.kind,
    visibility: e.visibility,
    description: e.description,
    latestVersion: latest.get(e.id) ?? null,
  }));
  if (!user) {
    return {
      owner,
      environments,
      moreEnvironments: envRows.length > OWNER_LIST_LIMIT,
      reports: [],
      moreReports: false,
      ranks: [],
    };
  }
  const [reportRows, rankRows] = await Promise.all([
    listUploadedReports(db, user.id, viewer, OWNER_LIST_LIMIT + 1),
    rankBestReports(db, user.id, viewer, OWNER_LIST_LIMIT),
  ]);
  return {
    owner,
    environments,
    moreEnvironments: envRows.length > OWNER_LIST_LIMIT,
    reports: reportRows.slice(0, OWNER_LIST_LIMIT).map((r) => ({
      id: r.id,
      env: `${r.owner}/${r.name}`,
      version: r.semver,
      model: r.model,
      harness: r.harness,
      envArgs: r.envArgs,
      meanReward: r.avgReward,
      status: r.status,
      createdAt: r.createdAt.toISOString(),
    })),
    moreReports: reportRows.length > OWNER_LIST_LIMIT,
    ranks: rankRows.map((r) => ({
      env: `${r.owner}/${r.name}`,
      envArgs: r.envArgs,
      rank: r.rank,
      of: r.total,
      bestReward: r.bestReward,
      bestReportId: r.bestReportId,
    })),
  };
}
