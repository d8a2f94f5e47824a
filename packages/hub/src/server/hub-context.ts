/** What every request handler of the Hub reaches: the database, the blob store, limits and caches. */

import type { AuthLimits } from "../auth/auth-limits.ts";
import type { BlobStore } from "../blobs/blob-store.ts";
import type { Database } from "../db/database.ts";
import type { PackageLimits } from "../package/package-tarball.ts";
import type { ReadCache } from "./read-cache.ts";

/** Who is making a request: a user by key or web session, or nobody (anonymous). */
export interface Principal {
  userId: number;
  userName: string;
  isAdmin: boolean;
  /** A session has write scope; a key has its own. */
  scope: "read" | "write";
  via: { type: "key"; prefix: string; name: string } | { type: "session"; csrfToken: string };
}

/** Shared state of one running Hub. */
export interface HubContext {
  db: Database;
  blobs: BlobStore;
  limits: PackageLimits;
  /** Where a pushed tarball is written while it is checked (a folder per push, removed after). */
  uploadDir: string;
  /** Read-side cache of environment info, packuments and key lookups (see read-cache.ts). */
  cache: ReadCache;
  /** Limits on failed sign-ins and invalid API keys (see auth-limits.ts). */
  authLimits: AuthLimits;
  /** Header naming the client's address, set by a trusted proxy in front (e.g. `x-forwarded-for`). */
  trustedProxyHeader?: string;
  /** Origin the Hub is reached at (for URLs it hands out); default: the request's own origin. */
  publicUrl?: string;
}

/** Hono's typing of the Hub's per-request variables. */
export interface HubEnv {
  Variables: {
    hub: HubContext;
    principal: Principal | null;
  };
}
