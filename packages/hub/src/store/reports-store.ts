/**
 * Eval reports and their rows: one report per user and run id, pinned to one environment version,
 * with the environment arguments the run used (its metadata's `env_args`) and, for an agent run, the
 * harness the model worked through (its metadata's `harness`). Runs with different arguments
 * measure different tasks, so leaderboards rank them apart; a model through another harness is
 * another contestant, so a leaderboard's line is a model and harness.
 */
import type { Queryable } from "../db/database.ts";
import { visibleEnvSql } from "./environments-store.ts";

/**
 * SQL for the `env_args` of the report aliased `alias`: its metadata's, or `{}` (the defaults) when
 * the run recorded none. Equal arguments compare equal whatever their key order (jsonb).
 */
export function envArgsSql(alias: string): string {
  return `(case jsonb_typeof(${alias}.metadata->'env_args') when 'object' then ${alias}.metadata->'env_args' else '{}'::jsonb end)`;
}

/**
 * SQL for the `harness` of the report aliased `alias`: its metadata's, or null for a run vf's
 * environment made itself. Read from the metadata, as env_args is, so reports stored before the
 * Hub knew harnesses have theirs too.
 */
export function harnessSql(alias: string): string {
  return `(case jsonb_typeof(${alias}.metadata->'harness') when 'string' then ${alias}.metadata->>'harness' end)`;
}

/** A report as stored, with its environment and version labels. */
export interface ReportRecord {
  id: number;
  envId: number;
  owner: string;
  name: string;
  visibility: "public" | "private";
  versionId: number;
  semver: string;
  contentHash: string;
  runId: string;
  model: string;
  samplingArgs: Record<string, unknown>;
  /** The environment arguments of the run; `{}` means its defaults. */
  envArgs: Record<string, unknown>;
  /** The harness of an agent run; null: none. */
  harness: string | null;
  metadata: Record<string, unknown>;
  rowCount: number;
  rowsReceived: number;
  status: "uploading" | "complete";
  avgReward: number | null;
  uploadedBy: string;
  createdAt: string;
}

interface ReportRow {
  id: number;
  env_id: number;
  owner: string;
  name: string;
  visibility: "public" | "private";
  version_id: number;
  semver: string;
  content_hash: string;
  run_id: string;
  model: string;
  sampling_args: Record<string, unknown>;
  env_args: Record<string, unknown>;
  harness: string | null;
  metadata: Record<string, unknown>;
  row_count: number;
  rows_received: number;
  status: "uploading" | "complete";
  avg_reward: number | null;
  uploaded_by: string;
  created_at: Date;
}

const SELECT = `
  select r.*, ${envArgsSql("r")} as env_args, ${harnessSql("r")} as harness, e.owner, e.name, e.visibility, v.semver, v.content_hash,
    u.name as uploaded_by,
    (select count(*)::int from report_rows x where x.report_id = r.id) as rows_received
  from reports r
  join environments e on e.id = r.env_id
  join versions v on v.id = r.version_id
  join users u on u.id = r.user_id`;

const toReport = (row: ReportRow): ReportRecord => ({
  id: row.id,
  envId: row.env_id,
  owner: row.owner,
  name: row.name,
  visibility: row.visibility,
  versionId: row.version_id,
  semver: row.semver,
  contentHash: row.content_hash,
  runId: row.run_id,
  model: row.model,
  samplingArgs: row.sampling_args,
  envArgs: row.env_args,
  harness: row.harness,
  metadata: row.metadata,
  rowCount: row.row_count,
  rowsReceived: row.rows_received,
  status: row.status,
  avgReward: row.avg_reward,
  uploadedBy: row.uploaded_by,
  createdAt: row.created_at.toISOString(),
});

/** What opening a report stores. */
export interface NewReport {
  envId: number;
  versionId: number;
  userId: number;
  runId: string;
  model: string;
  samplingArgs: Record<string, unknown>;
  metadata: Record<string, unknown>;
  rowCount: number;
}

/** Opens a report, or returns the one this user already has for the run id (`created: false`). */
export async function openReport(
  db: Queryable,
  report: NewReport,
): Promise<{ report: ReportRecord; created: boolean }> {
  const inserted = await db.query<{ id: number }>(
    `insert into reports (env_id, version_id, user_id, run_id, model, sampling_args, metadata, row_count, status)
     values ($1, $2, $3, $4, $5, $6, $7, $8, 'uploading')
     on conflict (user_id, run_id) do nothing returning id`,
    [
      report.envId,
      report.versionId,
      report.userId,
      report.runId,
      report.model,
      JSON.stringify(report.samplingArgs),
      JSON.stringify(report.metadata),
      report.rowCount,
    ],
  );
  const rows = await db.query<ReportRow>(`${SELECT} where r.user_id = $1 and r.run_id = $2`, [
    report.userId,
    report.runId,
  ]);
  return { report: toReport(rows[0]!), created: inserted.length > 0 };
}

/** The report with this id, or null. */
export async function findReport(db: Queryable, id: number): Promise<ReportRecord | null> {
  const rows = await db.query<ReportRow>(`${SELECT} where r.id = $1`, [id]);
  return rows[0] ? toReport(rows[0]) : null;
}

/** Reports of an environment, newest first, `limit + 1` rows after `afterId`. */
export async function listReports(
  db: Queryable,
  envId: number,
  limit: number,
  afterId?: number,
): Promise<ReportRecord[]> {
  const rows = await db.query<ReportRow>(
    `${SELECT} where r.env_id = $1 and ($2::int is null or r.id < $2::int) order by r.id desc limit $3`,
    [envId, afterId ?? null, limit + 1],
  );
  return rows.map(toReport);
}

/** Stores rows at `offset..`; rows already stored at an index are kept as they are (resumed uploads). */
export async function insertRows(
  db: Queryable,
  reportId: number,
  offset: number,
  rows: { reward: number; row: unknown }[],
): Promise<number> {
  const indexes = rows.map((_, i) => offset + i);
  await db.query(
    `insert into report_rows (report_id, idx, reward, row)
     select $1, idx, reward, row from unnest($2::int[], $3::float8[], $4::jsonb[]) as t(idx, reward, row)
     on conflict (report_id, idx) do nothing`,
    [reportId, indexes, rows.map((r) => r.reward), rows.map((r) => JSON.stringify(r.row))],
  );
  const count = await db.query<{ n: number }>(
    "select count(*)::int as n from report_rows where report_id = $1",
    [reportId],
  );
  return count[0]!.n;
}

/** Marks the report complete with its mean reward over the stored rows. */
export async function completeReport(db: Queryable, reportId: number): Promise<void> {
  await db.query(
    `update reports set status = 'complete',
       avg_reward = (select avg(reward) from report_rows where report_id = $1) where id = $1`,
    [reportId],
  );
}

/** Rows of a report in order, `limit + 1` after index `afterIndex`. */
export async function listRows(
  db: Queryable,
  reportId: number,
  limit: number,
  afterIndex = -1,
): Promise<{ id: number; row: Record<string, unknown> }[]> {
  const rows = await db.query<{ idx: number; row: Record<string, unknown> }>(
    "select idx, row from report_rows where report_id = $1 and idx > $2 order by idx limit $3",
    [reportId, afterIndex, limit + 1],
  );
  return rows.map((r) => ({ id: r.idx, row: r.row }));
}

/** One model's line of a leaderboard (a model and harness's, for agent runs). */
export interface LeaderboardLine {
  model: string;
  /** The harness the model worked through; null: the environment ran the rollouts. */
  harness: string | null;
  reports: number;
  rollouts: number;
  bestReward: number;
  meanReward: number;
  bestReportId: number;
}

/** The leaderboard of the runs of one set of environment arguments. */
export interface LeaderboardGroup {
  /** `{}`: the environment's defaults. */
  envArgs: Record<string, unknown>;
  /** Best reward first. */
  lines: LeaderboardLine[];
}

/**
 * The complete reports of an environment ranked per model and harness, one leaderboard per set of
 * environment arguments (runs with other arguments measured another task): the defaults first, then
 * the others in a fixed order (by their JSON text).
 */
export async function leaderboard(db: Queryable, envId: number): Promise<LeaderboardGroup[]> {
  const rows = await db.query<{
    env_args: Record<string, unknown>;
    args_key: string;
    model: string;
    harness: string | null;
    reports: number;
    rollouts: number;
    best: number;
    mean: number;
    best_id: number;
  }>(
    `select env_args, env_args::text as args_key, model, harness, count(*)::int as reports,
       sum(row_count)::int as rollouts, max(avg_reward) as best, avg(avg_reward) as mean,
       (array_agg(id order by avg_reward desc, id))[1] as best_id
     from (select ${envArgsSql("r")} as env_args, ${harnessSql("r")} as harness, r.model, r.row_count,
             r.avg_reward, r.id from reports r
           where r.env_id = $1 and r.status = 'complete' and r.avg_reward is not null) as complete
     group by env_args, model, harness
     order by env_args = '{}'::jsonb desc, env_args::text, max(avg_reward) desc, model, harness nulls first`,
    [envId],
  );
  const groups: LeaderboardGroup[] = [];
  let key: string | null = null;
  for (const r of rows) {
    if (r.args_key !== key) {
      groups.push({ envArgs: r.env_args, lines: [] });
      key = r.args_key;
    }
    groups.at(-1)!.lines.push({
      model: r.model,
      harness: r.harness,
      reports: r.reports,
      rollouts: r.rollouts,
      bestReward: r.best,
      meanReward: r.mean,
      bestReportId: r.best_id,
    });
  }
  return groups;
}

/** A report a user uploaded, labelled with the environment and version it measured. */
export interface UploadedReport {
  id: number;
  owner: string;
  name: string;
  semver: string;
  model: string;
  /** The harness of an agent run; null: none. */
  harness: string | null;
  /** `{}`: the environment's defaults. */
  envArgs: Record<string, unknown>;
  avgReward: number | null;
  status: "uploading" | "complete";
  createdAt: Date;
}

/**
 * The reports `userId` uploaded on environments `viewer` (a user name, null for a visitor) may see,
 * newest first, `limit` at most.
 */
export async function listUploadedReports(
  db: Queryable,
  userId: number,
  viewer: string | null,
  limit: number,
): Promise<UploadedReport[]> {
  const rows = await db.query<{
    id: number;
    owner: string;
    name: string;
    semver: string;
    model: string;
    harness: string | null;
    env_args: Record<string, unknown>;
    avg_reward: number | null;
    status: "uploading" | "complete";
    created_at: Date;
  }>(
    `select r.id, e.owner, e.name, v.semver, r.model, ${harnessSql("r")} as harness,
       ${envArgsSql("r")} as env_args, r.avg_reward, r.status, r.created_at
     from reports r join environments e on e.id = r.env_id join versions v on v.id = r.version_id
     where r.user_id = $1 and ${visibleEnvSql("e", "$2")} order by r.id desc limit $3`,
    [userId, viewer, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    owner: r.owner,
    name: r.name,
    semver: r.semver,
    model: r.model,
    harness: r.harness,
    envArgs: r.env_args,
    avgReward: r.avg_reward,
    status: r.status,
    createdAt: r.created_at,
  }));
}

/** Where a user's best complete report stands among those of one environment and set of arguments. */
export interface BestReportRank {
  owner: string;
  name: string;
  /** `{}`: the environment's defaults. */
  envArgs: Record<string, unknown>;
  bestReward: number;
  bestReportId: number;
  /** 1 + the number of reports with a strictly higher mean reward (ties share a rank). */
  rank: number;
  /** Complete reports of the environment with these arguments. */
  total: number;
}

/**
 * For each environment `viewer` may see and set of arguments `userId` has a complete report of, where
 * their best stands among all complete reports with those arguments: best rank first, `limit` at most.
 */
export async function rankBestReports(
  db: Queryable,
  userId: number,
  viewer: string | null,
  limit: number,
): Promise<BestReportRank[]> {
  const rows = await db.query<{
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
       where r.user_id = $1 and r.status = 'complete' and r.avg_reward is not null and ${visibleEnvSql("e", "$2")}
       group by r.env_id, 2)
     select e.owner, e.name, b.env_args, b.best, b.best_id,
       1 + (select count(*)::int from reports x where x.env_id = b.env_id and x.status = 'complete'
            and ${envArgsSql("x")} = b.env_args and x.avg_reward > b.best) as rank,
       (select count(*)::int from reports x where x.env_id = b.env_id and x.status = 'complete'
            and ${envArgsSql("x")} = b.env_args and x.avg_reward is not null) as total
     from best b join environments e on e.id = b.env_id
     order by rank, e.owner, e.name, b.env_args = '{}'::jsonb desc, b.env_args::text limit $3`,
    [userId, viewer, limit],
  );
  return rows.map((r) => ({
    owner: r.owner,
    name: r.name,
    envArgs: r.env_args,
    bestReward: r.best,
    bestReportId: r.best_id,
    rank: r.rank,
    total: r.total,
  }));
}
