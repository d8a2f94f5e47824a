/** Request and response bodies of eval reports. */
import { z } from "zod";

/** `POST /reports`: opens (or finds, by run id) a report pinned to one environment version. */
export const CreateReportRequest = z
  .object({
    /** The run folder's id; one report per user and run id. */
    run_id: z.string().min(1).max(200),
    /** `owner/name` */
    env: z.string().min(3).max(130),
    /** The exact version the run used. */
    content_hash: z.string().regex(/^[0-9a-f]{64}$/, "a 64-digit lowercase hex SHA-256"),
    model: z.string().min(1).max(200),
    sampling_args: z.record(z.string(), z.unknown()).default({}),
    /**
     * The run's metadata.json, as read by core's results reader. Its `env_args` (an object; absent
     * means the environment's defaults) are the report's arguments: leaderboards rank runs of
     * different arguments apart. Its `harness`, on an agent run (a taskset, or an environment run
     * with `--harness`), is the agent program the model worked through: leaderboards rank each
     * model and harness as one entry.
     */
    metadata: z.looseObject({
      env_args: z.record(z.string(), z.unknown()).optional(),
      harness: z.string().min(1).max(100).optional(),
    }),
    /** How many rows the finished upload will hold. */
    row_count: z.number().int().min(0).max(1_000_000),
  })
  .strict();
export type CreateReportRequest = z.infer<typeof CreateReportRequest>;

/** uploading until every row is stored and the report is finalized. */
export const ReportStatus = z.enum(["uploading", "complete"]);
export type ReportStatus = z.infer<typeof ReportStatus>;

/** A report: the run, the exact version and model it measured, and its upload state. */
export const ReportInfo = z.object({
  id: z.number().int(),
  run_id: z.string(),
  env: z.string(),
  version: z.string(),
  content_hash: z.string(),
  model: z.string(),
  sampling_args: z.record(z.string(), z.unknown()),
  /** The environment arguments of the run (its metadata's `env_args`); `{}` means the defaults. */
  env_args: z.record(z.string(), z.unknown()),
  /** The harness an agent run's model worked through (its metadata's `harness`); null: none, vf ran the rollouts. */
  harness: z.string().nullable().default(null),
  metadata: z.record(z.string(), z.unknown()),
  status: ReportStatus,
  row_count: z.number().int(),
  /** Rows stored so far; an interrupted upload resumes from here. */
  rows_received: z.number().int(),
  /** Mean reward over the stored rows (null before any). */
  avg_reward: z.number().nullable(),
  uploaded_by: z.string(),
  created_at: z.string(),
});
export type ReportInfo = z.infer<typeof ReportInfo>;

/** `PUT /reports/{id}/rows`: rows `offset .. offset+rows.length-1`; rows already stored are kept. */
export const RowsChunk = z
  .object({
    offset: z.number().int().min(0),
    rows: z.array(z.record(z.string(), z.unknown())).min(1).max(1000),
  })
  .strict();
export type RowsChunk = z.infer<typeof RowsChunk>;

/** Rows the report holds after a chunk. */
export const RowsReceived = z.object({ rows_received: z.number().int() });
export type RowsReceived = z.infer<typeof RowsReceived>;

/** One stored rollout row and its index in the run. */
export const ReportRow = z.object({ index: z.number().int(), row: z.record(z.string(), z.unknown()) });
export type ReportRow = z.infer<typeof ReportRow>;

/** One model's line of an environment's leaderboard (one model and harness's, for agent runs). */
export const LeaderboardEntry = z.object({
  model: z.string(),
  /** The harness the model worked through; null: the environment ran the rollouts itself. */
  harness: z.string().nullable().default(null),
  reports: z.number().int(),
  rollouts: z.number().int(),
  best_reward: z.number(),
  mean_reward: z.number(),
  best_report_id: z.number().int(),
});
export type LeaderboardEntry = z.infer<typeof LeaderboardEntry>;

/** The leaderboard of one set of environment arguments: one line per model (and harness), best first. */
export const LeaderboardGroup = z.object({
  /** The environment arguments of every run ranked here; `{}` means the defaults. */
  env_args: z.record(z.string(), z.unknown()),
  entries: z.array(LeaderboardEntry),
});
export type LeaderboardGroup = z.infer<typeof LeaderboardGroup>;

/**
 * `GET /envs/{owner}/{name}/leaderboard`: one board per set of environment arguments, since runs with
 * other arguments measured another task; the defaults first.
 */
export const Leaderboard = z.object({ env: z.string(), groups: z.array(LeaderboardGroup) });
export type Leaderboard = z.infer<typeof Leaderboard>;
