/**
 * @vf-rl/hub: the Environments Hub server (HTTP API, npm registry protocol, web pages) over a database
 * (PGlite or PostgreSQL) and a blob store (folder or S3), plus the package format shared with the
 * client. The client the CLI calls is the `@vf-rl/hub/client` subpath.
 */

export { HubErrorCode, STATUS_OF } from "./api/error-code.ts";
export * from "./api/schemas/account-schemas.ts";
export * from "./api/schemas/env-schemas.ts";
export { ErrorEnvelope } from "./api/schemas/envelope.ts";
export * from "./api/schemas/report-schemas.ts";
export type { BlobStore } from "./blobs/blob-store.ts";
export { openBlobStore } from "./blobs/open-blob-store.ts";
export { HubDataInUseError } from "./db/data-dir-lock.ts";
export type { Database, Queryable } from "./db/database.ts";
export { migrate } from "./db/migrate.ts";
export { openPgliteDatabase } from "./db/pglite-database.ts";
export { openPostgresDatabase, type PostgresOptions } from "./db/postgres-database.ts";
export { HubError } from "./hub-error.ts";
export { collectPackageFiles, readUnpackedPackage } from "./package/collect-files.ts";
export {
  CONTENT_HASH_SPEC,
  contentHash,
  isContentHash,
  type PackageFile,
  sortFiles,
} from "./package/content-hash.ts";
export { checkManifest, type PackageManifest, readPackageManifest } from "./package/package-manifest.ts";
export { isIncludedPath, unsafePathReason } from "./package/package-path.ts";
export {
  DEFAULT_PACKAGE_LIMITS,
  type PackageLimits,
  packTarball,
  unpackTarball,
} from "./package/package-tarball.ts";
export { API_BASE, createHubApp } from "./server/create-app.ts";
export { type CreateHubUserOptions, createHubUser } from "./server/create-user.ts";
export type { HubContext, Principal } from "./server/hub-context.ts";
export {
  type BootstrapAdmin,
  openHubDatabase,
  type RunningHub,
  type StartHubOptions,
  startHub,
} from "./server/start-hub.ts";
