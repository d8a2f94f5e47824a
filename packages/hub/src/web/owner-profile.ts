/**
 * What an owner's page shows, read as one viewer sees it: the owner's environments with their latest
 * version, the eval reports they uploaded, and where their best report stands on each environment.
 * A private environment, and every report on one, is shown only to that environment's owner.
 */
import type { Queryable } from "../db/database.ts";
import { envArgsSql } from "../reports/reports-store.ts";
import type { Visibility } from "../store/environments-store.ts";
import { findUserByName } from "../store/users-store.ts";
import { latestOf } from "../store/versions-store.ts";

/** Rows of each list read at most; the page says when there are more. */
export const OWNER_LIST_LIMIT = 100;

/** One of the owner's environments. */
export interface OwnerEnvironment {
  name: string;
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

// The one visibility rule of this page, on an `environments e` row; $2 is the viewer's name.
const VISIBLE = `(e.visibility = 'public' or e.owner = $2::text)`;

/** The owner's page as `viewer` sees it, or null when no such user or visible environment exists. */
export async function loadOwnerProfile(
  db: Queryable,
  options: OwnerProfileOptions,
): Promise<OwnerProfile | null> {
  const { owner, viewer } = options;
  const user = await findUserByName(db, owner);
  const envRows = await db.query<{
    id: number;
    name: string;
    visibility: Visibility;
    description: string;
  }>(
    `select e.id, e.name, e.visibility, e.description from environments e
     where e.owner = $1 and ${VISIBLE} order by e.name limit $3`,
    [owner, viewer, OWNER_LIST_LIMIT + 1],
  );
  if (!user && envRows.length === 0) return null;
  const shownEnvs = envRows.slice(0, OWNER_LIST_LIMIT);
  const versions = await db.query<{ env_id: number; semver: string }>(
    "select env_id, semver from versions where env_id = any($1::int[])",
    [shownEnvs.map((e) => e.id)],
  );
  const environments = shownEnvs.map((e) => ({
    name: e.name,
    visibility: e.visibility,
    description: e.description,
    latestVersion: latestOf(versions.filter((v) => v.env_id === e.id))?.semver ?? null,
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
    db.query<{
      id: number;
      owner: string;
      name: string;
      semver: string;
      model: string;
      env_args: Record<string, unknown>;
      avg_reward: number | null;
      status: "uploading" | "complete";
      created_at: Date;
    }>(
      `select r.id, e.owner, e.name, v.semver, r.model, ${envArgsSql("r")} as env_args, r.avg_reward, r.status,
         r.created_at
       from reports r join environments e on e.id = r.env_id join versions v on v.id = r.version_id
       where r.user_id = $1 and ${VISIBLE} order by r.id desc limit $3`,
      [user.id, viewer, OWNER_LIST_LIMIT + 1],
    ),
    db.query<{
      owner: string;
      name: string;
      env_args: Record<string, unknown>;
      best: number;
      best_id: number;
      rank: number;
      total: number;
    }>(
      `with best as (
         select r.env_id, ${envArgsSql("r")} as env_args, max(r.avg_reward) as best,
           (array_agg(r.id order by r.avg_reward desc, r.id))[1] as best_id
         from reports r join environments e on e.id = r.env_id
         where r.user_id = $1 and r.status = 'complete' and r.avg_reward is not null and ${VISIBLE}
         group by r.env_id, 2)
       select e.owner, e.name, b.env_args, b.best, b.best_id,
         1 + (select count(*)::int from reports x where x.env_id = b.env_id and x.status = 'complete'
              and ${envArgsSql("x")} = b.env_args and x.avg_reward > b.best) as rank,
         (select count(*)::int from reports x where x.env_id = b.env_id and x.status = 'complete'
              and ${envArgsSql("x")} = b.env_args and x.avg_reward is not null) as total
       from best b join environments e on e.id = b.env_id
       order by rank, e.owner, e.name, b.env_args = '{}'::jsonb desc, b.env_args::text limit $3`,
      [user.id, viewer, OWNER_LIST_LIMIT],
    ),
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
      envArgs: r.env_args,
      meanReward: r.avg_reward,
      status: r.status,
      createdAt: r.created_at.toISOString(),
    })),
    moreReports: reportRows.length > OWNER_LIST_LIMIT,
    ranks: rankRows.map((r) => ({
      env: `${r.owner}/${r.name}`,
      envArgs: r.env_args,
      rank: r.rank,
      of: r.total,
      bestReward: r.best,
      bestReportId: r.best_id,
    })),
  };
}
