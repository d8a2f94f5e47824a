/**
 * `vf eval push RUN_DIR` (and `vf eval ... --push`): uploads a saved run as a report pinned to the
 * exact environment version it used (by content hash), with its model and sampling settings.
 * Idempotent per run id: pushing again resumes an interrupted upload from the rows the Hub already
 * holds, and a complete report is left as it is.
 */
import { basename } from "node:path";
import { findEnvironment } from "@vf-rl/core/loading";
import { readRun } from "@vf-rl/core/results";
import { BODY_LIMITS } from "../api/body-limits.ts";
import type { ReportInfo } from "../api/schemas/report-schemas.ts";
import { HubError } from "../hub-error.ts";
import { collectPackageFiles } from "../package/collect-files.ts";
import { contentHash } from "../package/content-hash.ts";
import type { HubClient } from "./hub-client.ts";

/** Options of `pushReport`. */
export interface PushReportOptions {
  client: HubClient;
  /** The run folder (metadata.json + results.jsonl). */
  runDir: string;
  /** `owner/name` on the Hub; default the run's env id (a bare id is pushed under your user). */
  env?: string;
  /** The version's content hash; default the hash of the environment package the run's id finds. */
  contentHash?: string;
  /** Where the run's environment id is resolved; default the working folder. */
  cwd?: string;
  /** Rows per request; default 200. */
  chunkRows?: number;
  /** Bytes of JSON rows per request; default half the Hub's cap (`BODY_LIMITS.reportRows`). */
  chunkBytes?: number;
  /** Called after each chunk with rows stored so far and the total. */
  onProgress?: (stored: number, total: number) => void;
}

/** What the push did. */
export interface PushReportResult {
  report: ReportInfo;
  /** Rows the Hub already had before this push (non-zero when it resumed). */
  resumedFrom: number;
  /** Rows sent by this push. */
  sent: number;
  /** The report's web page. */
  url: string;
}

/** Uploads the run in `runDir`; see the file comment. */
export async function pushReport(options: PushReportOptions): Promise<PushReportResult> {
  const run = await readRun(options.runDir);
  const { metadata, records } = run;
  const envId = options.env ?? metadata.env_id;
  const hash = options.contentHash ?? (await localContentHash(metadata.env_id, options.cwd));
  let env = envId.replace(/@.*$/, "");
  if (!env.includes("/")) env = `${(await options.client.whoami()).user.name}/${env}`;
  let report = await options.client.openReport({
    run_id: metadata.run_id ?? basename(options.runDir),
    env,
    content_hash: hash,
    model: metadata.model,
    sampling_args: metadata.sampling_args,
    metadata: metadata as unknown as Record<string, unknown>,
    row_count: records.length,
  });
  const resumedFrom = report.rows_received;
  let sent = 0;
  if (report.status !== "complete") {
    let stored = report.rows_received;
    const chunks = chunkRows(records, stored, {
      rows: options.chunkRows ?? 200,
      bytes: options.chunkBytes ?? BODY_LIMITS.reportRows / 2,
    });
    for (const { offset, rows } of chunks) {
      stored = await options.client.uploadRows(report.id, offset, rows);
      sent += rows.length;
      options.onProgress?.(stored, records.length);
    }
    report = await options.client.finalizeReport(report.id);
  }
  return { report, resumedFrom, sent, url: `${options.client.url}/reports/${report.id}` };
}

/**
 * Consecutive chunks of `records` from `start`, each at most `limit.rows` rows and `limit.bytes` of
 * JSON, so no request passes the Hub's body cap however long the rollouts are.
 */
function chunkRows(
  records: readonly unknown[],
  start: number,
  limit: { rows: number; bytes: number },
): { offset: number; rows: unknown[] }[] {
  const chunks: { offset: number; rows: unknown[] }[] = [];
  let current: { offset: number; rows: unknown[] } = { offset: start, rows: [] };
  let bytes = 0;
  for (let i = start; i < records.length; i++) {
    const size = Buffer.byteLength(JSON.stringify(records[i]));
    if (size > limit.bytes) {
      throw new HubError(
        "payload_too_large",
        `row ${i} of the run is ${size} bytes, over the ${limit.bytes} bytes one upload may carry: drop its largest fields (e.g. logprobs) and push again`,
      );
    }
    if (current.rows.length > 0 && (current.rows.length >= limit.rows || bytes + size > limit.bytes)) {
      chunks.push(current);
      current = { offset: i, rows: [] };
      bytes = 0;
    }
    current.rows.push(records[i]);
    bytes += size + 1;
  }
  if (current.rows.length > 0) chunks.push(current);
  return chunks;
}

async function localContentHash(envId: string, cwd: string | undefined): Promise<string> {
  let dir: string;
  try {
    dir = findEnvironment(envId, cwd ? { cwd } : {}).dir;
  } catch (error) {
    throw new HubError(
      "bad_request",
      `cannot find the environment "${envId}" this run used, to pin the report to its version (${(error as Error).message}): pass --env owner/name and --hash`,
    );
  }
  return contentHash(await collectPackageFiles(dir));
}
