/**
 * Starts a Hub server: opens the database (embedded PGlite under `dataDir`, or PostgreSQL by URL),
 * migrates it, opens the blob store (a folder under `dataDir`, or S3 by URL), and listens. On a fresh
 * Hub (no users yet) it creates the `admin` user and returns its password and a write key, once:
 * `vf hub serve` prints them, and nothing can show them again.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { AuthLimits } from "../auth/auth-limits.ts";
import { issueApiKey } from "../auth/issue-api-key.ts";
import { hashPassword } from "../auth/password.ts";
import { openBlobStore } from "../blobs/open-blob-store.ts";
import { lockDataDir } from "../db/data-dir-lock.ts";
import type { Database } from "../db/database.ts";
import { migrate } from "../db/migrate.ts";
import { openPgliteDatabase } from "../db/pglite-database.ts";
import { openPostgresDatabase } from "../db/postgres-database.ts";
import { DEFAULT_PACKAGE_LIMITS, type PackageLimits } from "../package/package-tarball.ts";
import { countUsers, insertUser, lockFirstUserCreation } from "../store/users-store.ts";
import { createHubApp } from "./create-app.ts";
import type { HubContext } from "./hub-context.ts";
import { ReadCache } from "./read-cache.ts";

/** Options of `startHub`. */
export interface StartHubOptions {
  /** Folder for the embedded database (`db/`) and blobs (`blobs/`); created when absent. */
  dataDir: string;
  /** Port to listen on; 0 picks a free one. Default 8377. */
  port?: number;
  /** Address to listen on; default 127.0.0.1 (loopback only). */
  host?: string;
  /** A PostgreSQL URL; default `DATABASE_URL`, else the embedded database. */
  databaseUrl?: string;
  /** A blob store URL (folder path or `s3://...`); default `<dataDir>/blobs`. */
  blobUrl?: string;
  /** Origin the Hub is reached at, when behind a proxy; default each request's own origin. */
  publicUrl?: string;
  /** Package size limits; default `DEFAULT_PACKAGE_LIMITS`. */
  limits?: Partial<PackageLimits>;
  /** Where pushed tarballs are staged while they are checked; default the system's temp folder. */
  uploadDir?: string;
  /** Cache lifetime of hot reads in seconds; default 5 (0 disables caching). */
  cacheTtlSeconds?: number;
  /**
   * Behind a reverse proxy: the header it sets to the client's address (e.g. `x-forwarded-for`, whose
   * last entry is used), so rate limits apply per client rather than to the proxy; default
   * `VF_HUB_TRUSTED_PROXY_HEADER`, else none (the socket's address). Set it only when every request
   * comes through that proxy: otherwise clients could choose their own address.
   */
  trustedProxyHeader?: string;
}

/** The first user of a fresh Hub, shown once. */
export interface BootstrapAdmin {
  user: string;
  password: string;
  apiKey: string;
}

/** A running Hub. */
export interface RunningHub {
  /** `http://host:port` */
  url: string;
  port: number;
  context: HubContext;
  /** Set only when this start created the first user. */
  bootstrap: BootstrapAdmin | null;
  /** Stops listening and closes the database. */
  close(): Promise<void>;
}

/**
 * Opens the database `options` name (see `StartHubOptions`), migrated. The embedded one is locked to
 * this process until closed.
 */
export async function openHubDatabase(options: { dataDir: string; databaseUrl?: string }): Promise<Database> {
  const url = options.databaseUrl ?? process.env.DATABASE_URL;
  let db: Database;
  if (url) db = await openPostgresDatabase({ url });
  else {
    mkdirSync(options.dataDir, { recursive: true });
    const unlock = lockDataDir(options.dataDir);
    try {
      const embedded = await openPgliteDatabase(join(options.dataDir, "db"));
      db = { ...embedded, close: () => embedded.close().finally(unlock) };
    } catch (error) {
      unlock();
      throw error;
    }
  }
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

/** Starts a Hub; see `StartHubOptions`. @example const hub = await startHub({ dataDir: "./hub-data", port: 0 }) */
export async function startHub(options: StartHubOptions): Promise<RunningHub> {
  const db = await openHubDatabase(options);
  const proxyHeader = options.trustedProxyHeader ?? process.env.VF_HUB_TRUSTED_PROXY_HEADER;
  const context: HubContext = {
    db,
    blobs: openBlobStore(options.blobUrl ?? join(options.dataDir, "blobs")),
    limits: { ...DEFAULT_PACKAGE_LIMITS, ...options.limits },
    uploadDir: options.uploadDir ?? tmpdir(),
    cache: new ReadCache({ ttlMs: (options.cacheTtlSeconds ?? 5) * 1000 }),
    authLimits: new AuthLimits(),
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    ...(proxyHeader ? { trustedProxyHeader: proxyHeader.toLowerCase() } : {}),
  };
  const bootstrap = await bootstrapAdmin(db);
  const app = createHubApp(context);
  const host = options.host ?? "127.0.0.1";
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: options.port ?? 8377, hostname: host }, () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    port,
    context,
    bootstrap,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await db.close();
    },
  };
}

/** Creates the `admin` user with a random password and a write key when the Hub has no users. */
async function bootstrapAdmin(db: Database): Promise<BootstrapAdmin | null> {
  return db.transaction(async (tx) => {
    await lockFirstUserCreation(tx);
    if ((await countUsers(tx)) > 0) return null;
    const password = randomBytes(12).toString("base64url");
    const user = await insertUser(tx, {
      name: "admin",
      passwordHash: await hashPassword(password),
      isAdmin: true,
    });
    const key = await issueApiKey(tx, user.id, "bootstrap", "write");
    return { user: user.name, password, apiKey: key.key };
  });
}
