/**
 * What `vf hub serve` checks before it starts a Hub: its database URL (--database-url, else
 * DATABASE_URL) is PostgreSQL's, an S3 blob store names a bucket and has credentials, and the
 * folders it writes (--data, a folder --blob-url) can be made and written. Also the one place that
 * turns a database that cannot be reached into one line naming the setting to fix.
 */
import { fileURLToPath } from "node:url";
import { UserError } from "@vf-rl/core/errors";
import { UsageError } from "../../cli-errors.ts";
import { isHttpUrl } from "../../flag-values.ts";
import { makeOutputFolder } from "../../path-checks.ts";

/** The settings of `vf hub serve` the checks read. */
export interface HubServeSettings {
  /** --data, else the default. */
  dataDir: string;
  /** --database-url, else DATABASE_URL; undefined for the embedded database. */
  databaseUrl: string | undefined;
  /** Which of the two gave `databaseUrl`, for messages. */
  databaseSource: string;
  blobUrl: string | undefined;
}

const S3_FORM = "s3://BUCKET/PREFIX?endpoint=http://HOST:PORT&region=REGION";

/** Throws a one-line error for the first setting that cannot work, making the folders on the way. */
export async function checkHubServeSettings(settings: HubServeSettings): Promise<void> {
  const { databaseUrl, blobUrl } = settings;
  if (databaseUrl !== undefined) {
    const protocol = URL.canParse(databaseUrl) ? new URL(databaseUrl).protocol : "";
    if (protocol !== "postgres:" && protocol !== "postgresql:") {
      // Not echoed: a mistyped URL may still hold its password.
      throw new UsageError(
        `${settings.databaseSource} is not a PostgreSQL URL: write it as postgres://USER:PASSWORD@HOST:5432/DATABASE`,
      );
    }
  }
  if (blobUrl?.startsWith("s3://")) checkS3Url(blobUrl);
  else if (blobUrl !== undefined) {
    await makeOutputFolder(blobFolder(blobUrl), {
      label: "--blob-url",
      fix: `give a folder you can write, or ${S3_FORM}`,
    });
  }
  // The embedded database and the default blob folder live under --data.
  if (databaseUrl === undefined || blobUrl === undefined) {
    await makeOutputFolder(settings.dataDir, {
      label: "--data",
      fix: "choose a folder you can write (default $VF_HOME/hub)",
    });
  }
}

// Errors of reaching a server (Node's) and of PostgreSQL refusing the login or the database.
const UNREACHABLE = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH"]);
const REFUSED = new Set(["28P01", "28000", "3D000"]);

/** `error` as one line naming the database setting when it is about reaching the database, else itself. */
export function databaseError(error: unknown, settings: HubServeSettings): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (settings.databaseUrl === undefined || typeof code !== "string") return error;
  if (!UNREACHABLE.has(code) && !REFUSED.has(code)) return error;
  const { host } = new URL(settings.databaseUrl);
  const reason = error instanceof Error && error.message ? error.message : code;
  return new UserError(
    `cannot open the PostgreSQL database at ${host || "its socket"} (${reason}): check ${settings.databaseSource} and that the server runs`,
    { cause: error },
  );
}

/** The folder a non-S3 --blob-url names: a path, or a file:// URL. */
function blobFolder(blobUrl: string): string {
  if (!blobUrl.startsWith("file://")) return blobUrl;
  try {
    return fileURLToPath(blobUrl);
  } catch {
    throw new UsageError(`--blob-url ${blobUrl} is not a file:// URL of this machine: give a folder`);
  }
}

function checkS3Url(blobUrl: string): void {
  if (!URL.canParse(blobUrl)) throw new UsageError(`--blob-url is not a URL: write it as ${S3_FORM}`);
  const url = new URL(blobUrl);
  // Named without its query, which may hold keys.
  const store = `s3://${url.hostname}${url.pathname}`;
  if (url.hostname === "")
    throw new UsageError(`--blob-url ${store} names no bucket: write it as ${S3_FORM}`);
  const endpoint = url.searchParams.get("endpoint");
  if (endpoint !== null && !isHttpUrl(endpoint)) {
    throw new UsageError(
      `--blob-url ${store}: endpoint must be an http:// or https:// URL: write it as ${S3_FORM}`,
    );
  }
  const hasKeys =
    (url.searchParams.get("access_key_id") ?? process.env.AWS_ACCESS_KEY_ID) &&
    (url.searchParams.get("secret_access_key") ?? process.env.AWS_SECRET_ACCESS_KEY);
  if (!hasKeys) {
    throw new UsageError(
      `--blob-url ${store} has no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`,
    );
  }
}
