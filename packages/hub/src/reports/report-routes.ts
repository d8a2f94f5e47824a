/**
 * The eval report routes: open a report pinned to an exact environment version (idempotent per run
 * id), upload rows in chunks (resumable: rows already stored are kept), finalize, read, and the
 * per-environment list and leaderboard. A report is visible exactly when its environment is.
 */
import { RolloutRecord } from "@vf-rl/core/results";
import { BODY_LIMITS } from "../api/body-limits.ts";
import { decodeCursor, paginate } from "../api/cursor.ts";
import type { Writer } from "../api/route-auth.ts";
import { parseWith, type RouteTable } from "../api/route-table.ts";
import { PageQuery, pageOf } from "../api/schemas/envelope.ts";
import {
  CreateReportRequest,
  Leaderboard,
  type LeaderboardGroup,
  ReportInfo,
  ReportRow,
  RowsChunk,
  RowsReceived,
} from "../api/schemas/report-schemas.ts";
import { HubError, notFound } from "../hub-error.ts";
import { canSee, visibleSnapshot } from "../server/env-access.ts";
import type { HubContext, Principal } from "../server/hub-context.ts";
import {
  completeReport,
  findReport,
  insertRows,
  type LeaderboardGroup as LeaderboardGroupRecord,
  leaderboard,
  listReports,
  listRows,
  openReport,
  type ReportRecord,
} from "../store/reports-store.ts";

/** The API shape of a report. */
export function toReportInfo(r: ReportRecord): ReportInfo {
  return {
    id: r.id,
    run_id: r.runId,
    env: `${r.owner}/${r.name}`,
    version: r.semver,
    content_hash: r.contentHash,
    model: r.model,
    sampling_args: r.samplingArgs,
    env_args: r.envArgs,
    harness: r.harness,
    metadata: r.metadata,
    status: r.status,
    row_count: r.rowCount,
    rows_received: r.rowsReceived,
    avg_reward: r.avgReward,
    uploaded_by: r.uploadedBy,
    created_at: r.createdAt,
  };
}

/** The API shape of the leaderboard of one set of environment arguments. */
export function toLeaderboardGroup(group: LeaderboardGroupRecord): LeaderboardGroup {
  return {
    env_args: group.envArgs,
    entries: group.lines.map((e) => ({
      model: e.model,
      harness: e.harness,
      reports: e.reports,
      rollouts: e.rollouts,
      best_reward: e.bestReward,
      mean_reward: e.meanReward,
      best_report_id: e.bestReportId,
    })),
  };
}

/** The report `id` if `viewer` may see it, else `not_found`. */
export async function visibleReport(
  hub: HubContext,
  viewer: Principal | null,
  id: string,
): Promise<ReportRecord> {
  const report = /^\d{1,9}$/.test(id) ? await findReport(hub.db, Number(id)) : null;
  if (!report || !canSee(report, viewer)) {
    throw notFound(`report ${id}`);
  }
  return report;
}

/** The report `id` if `writer` uploaded it: `not_found` when hidden, else `forbidden`. */
async function ownReport(hub: HubContext, writer: Writer, id: string): Promise<ReportRecord> {
  const report = await visibleReport(hub, writer, id);
  if (report.uploadedBy !== writer.userName)
    throw new HubError(
      "forbidden",
      `report ${id} was uploaded by ${report.uploadedBy}: only they can add to it`,
    );
  return report;
}

/** Registers the report routes on `table`. */
export function addReportRoutes(table: RouteTable): void {
  table.add(
    {
      method: "post",
      path: "/reports",
      summary: "Open a report for a run (or get the one already opened for this run id)",
      auth: "write",
      body: CreateReportRequest,
      maxBodyBytes: BODY_LIMITS.reportOpen,
      response: ReportInfo,
      status: (r) => (r.rows_received === 0 && r.status === "uploading" ? 201 : 200),
    },
    async (c, { user, body }) => {
      const hub = c.get("hub");
      const [owner, name] = body.env.split("/");
      if (!owner || !name)
        throw new HubError("validation_failed", `body field "env": "${body.env}" is not owner/name`, {
          field: "env",
        });
      const snapshot = await visibleSnapshot(hub, user, owner, name);
      const version = snapshot.versions.find((v) => v.contentHash === body.content_hash);
      if (!version) {
        throw new HubError(
          "not_found",
          `${body.env} has no version with content hash ${body.content_hash.slice(0, 12)}: push the environment you evaluated (vf env push), then upload the report`,
          { field: "content_hash" },
        );
      }
      const { report } = await openReport(hub.db, {
        envId: snapshot.env.id,
        versionId: version.id,
        userId: user.userId,
        runId: body.run_id,
        model: body.model,
        samplingArgs: body.sampling_args,
        metadata: body.metadata,
        rowCount: body.row_count,
      });
      if (
        report.versionId !== version.id ||
        report.model !== body.model ||
        report.rowCount !== body.row_count
      ) {
        throw new HubError(
          "conflict",
          `run ${body.run_id} was already uploaded as report ${report.id} for ${report.owner}/${report.name}@${report.semver} with ${report.model}: give this run its own id`,
          { report_id: report.id },
        );
      }
      return toReportInfo(report);
    },
  );

  table.add(
    { method: "get", path: "/reports/{id}", summary: "One report", auth: "optional", response: ReportInfo },
    async (c, { params, user }) => toReportInfo(await visibleReport(c.get("hub"), user, params.id)),
  );

  table.add(
    {
      method: "put",
      path: "/reports/{id}/rows",
      summary: "Upload a chunk of rows (rows already stored are kept)",
      auth: "write",
      body: RowsChunk,
      maxBodyBytes: BODY_LIMITS.reportRows,
      response: RowsReceived,
    },
    async (c, { params, user, body }) => {
      const report = await ownReport(c.get("hub"), user, params.id);
      if (report.status === "complete")
        throw new HubError("conflict", `report ${report.id} is complete: it takes no more rows`);
      if (body.offset + body.rows.length > report.rowCount) {
        throw new HubError(
          "validation_failed",
          `rows ${body.offset}..${body.offset + body.rows.length - 1} go past the report's row_count ${report.rowCount}`,
          {
            field: "rows",
          },
        );
      }
      const rows = body.rows.map((row, i) => ({
        reward: parseWith(RolloutRecord, row, `rows.${body.offset + i}`).reward,
        row,
      }));
      return { rows_received: await insertRows(c.get("hub").db, report.id, body.offset, rows) };
    },
  );

  table.add(
    {
      method: "post",
      path: "/reports/{id}/finalize",
      summary: "Mark a fully uploaded report complete",
      auth: "write",
      response: ReportInfo,
    },
    async (c, { params, user }) => {
      const report = await ownReport(c.get("hub"), user, params.id);
      if (report.rowsReceived < report.rowCount) {
        throw new HubError(
          "conflict",
          `report ${report.id} has ${report.rowsReceived} of ${report.rowCount} rows: upload the rest, then finalize`,
          {
            rows_received: report.rowsReceived,
          },
        );
      }
      await completeReport(c.get("hub").db, report.id);
      return toReportInfo((await findReport(c.get("hub").db, report.id))!);
    },
  );

  table.add(
    {
      method: "get",
      path: "/reports/{id}/rows",
      summary: "Rows of a report, in order",
      auth: "optional",
      query: PageQuery,
      response: pageOf(ReportRow),
    },
    async (c, { params, user, query }) => {
      const report = await visibleReport(c.get("hub"), user, params.id);
      const after = query.cursor ? decodeCursor(query.cursor) : -1;
      const { items, nextCursor } = paginate(
        await listRows(c.get("hub").db, report.id, query.limit, after),
        query.limit,
      );
      return { items: items.map((r) => ({ index: r.id, row: r.row })), next_cursor: nextCursor };
    },
  );

  table.add(
    {
      method: "get",
      path: "/envs/{owner}/{name}/reports",
      summary: "Reports of an environment, newest first",
      auth: "optional",
      query: PageQuery,
      response: pageOf(ReportInfo),
    },
    async (c, { params, user, query }) => {
      const hub = c.get("hub");
      const snapshot = await visibleSnapshot(hub, user, params.owner, params.name);
      const rows = await listReports(
        hub.db,
        snapshot.env.id,
        query.limit,
        query.cursor ? decodeCursor(query.cursor) : undefined,
      );
      const { items, nextCursor } = paginate(rows, query.limit);
      return { items: items.map(toReportInfo), next_cursor: nextCursor };
    },
  );

  table.add(
    {
      method: "get",
      path: "/envs/{owner}/{name}/leaderboard",
      summary:
        "Best and mean reward per model (and harness) over complete reports, one board per set of env_args",
      auth: "optional",
      response: Leaderboard,
    },
    async (c, { params, user }) => {
      const hub = c.get("hub");
      const snapshot = await visibleSnapshot(hub, user, params.owner, params.name);
      const groups = await leaderboard(hub.db, snapshot.env.id);
      return { env: `${params.owner}/${params.name}`, groups: groups.map(toLeaderboardGroup) };
    },
  );
}
