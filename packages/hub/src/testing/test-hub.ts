/**
 * An in-process Hub for tests: in-memory PGlite, a temporary blob folder, and helpers to add users
 * with keys and to build packages. Requests go through `app.request()`, with no socket.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Hono } from "hono";
import { AuthLimits } from "../auth/auth-limits.ts";
import { issueApiKey } from "../auth/issue-api-key.ts";
import { hashPassword } from "../auth/password.ts";
import { folderBlobStore } from "../blobs/folder-blob-store.ts";
import { migrate } from "../db/migrate.ts";
import { openPgliteDatabase } from "../db/pglite-database.ts";
import type { PackageFile } from "../package/content-hash.ts";
import { DEFAULT_PACKAGE_LIMITS, type PackageLimits, packTarball } from "../package/package-tarball.ts";
import { createHubApp } from "../server/create-app.ts";
import type { HubContext, HubEnv } from "../server/hub-context.ts";
import { ReadCache } from "../server/read-cache.ts";
import { insertUser } from "../store/users-store.ts";

/** A Hub app for one test file; `close()` in afterAll. */
export interface TestHub {
  app: Hono<HubEnv>;
  context: HubContext;
  /** Creates a user (password "pw-<name>") and returns a key of `scope`. */
  addUser(name: string, scope?: "read" | "write", admin?: boolean): Promise<string>;
  /** `app.request` with an optional bearer key and JSON body. */
  call(
    method: string,
    path: string,
    options?: { key?: string; json?: unknown; body?: Uint8Array; headers?: Record<string, string> },
  ): Promise<Response>;
  close(): Promise<void>;
}

/** Starts an in-process Hub. */
export async function createTestHub(
  options: { limits?: Partial<PackageLimits>; trustedProxyHeader?: string; uploadDir?: string } = {},
): Promise<TestHub> {
  const db = await openPgliteDatabase();
  await migrate(db);
  const blobDir = mkdtempSync(join(tmpdir(), "vf-hub-blobs-"));
  const context: HubContext = {
    db,
    blobs: folderBlobStore(blobDir),
    limits: { ...DEFAULT_PACKAGE_LIMITS, ...options.limits },
    uploadDir: options.uploadDir ?? tmpdir(),
    cache: new ReadCache(),
    authLimits: new AuthLimits(),
    ...(options.trustedProxyHeader ? { trustedProxyHeader: options.trustedProxyHeader } : {}),
  };
  const app = createHubApp(context);
  return {
    app,
    context,
    async addUser(name, scope = "write", admin = false) {
      const user = await insertUser(db, {
        name,
        passwordHash: await hashPassword(`pw-${name}`),
        isAdmin: admin,
      });
      return (await issueApiKey(db, user.id, "test", scope)).key;
    },
    async call(method, path, { key, json, body, headers = {} } = {}) {
      const all: Record<string, string> = { ...headers };
      if (key) all.authorization = `Bearer ${key}`;
      if (json !== undefined) all["content-type"] = "application/json";
      const payload = json !== undefined ? JSON.stringify(json) : body;
      return app.request(`http://hub.test${path}`, {
        method,
        headers: all,
        ...(payload !== undefined ? { body: payload as string | Uint8Array<ArrayBuffer> } : {}),
      });
    },
    async close() {
      await db.close();
      rmSync(blobDir, { recursive: true, force: true });
    },
  };
}

/** Files of a small environment package named `name` at `version`, with a README. */
export function samplePackage(
  name: string,
  version = "1.0.0",
  extra: Record<string, string> = {},
): PackageFile[] {
  const json = {
    name,
    version,
    description: `The ${name} environment`,
    type: "module",
    main: "index.js",
    vf: { id: name, description: `The ${name} environment`, tags: ["test", "sample"] },
    peerDependencies: { "@vf-rl/core": "*" },
    peerDependenciesMeta: { "@vf-rl/core": { optional: true } },
  };
  const files: Record<string, string> = {
    "package.json": `${JSON.stringify(json, null, 2)}\n`,
    "README.md": `# ${name}\n\nA sample environment.\n`,
    "index.js": "export function loadEnvironment() {\n  return {};\n}\n",
    ...extra,
  };
  return Object.entries(files).map(([path, text]) => ({ path, data: Buffer.from(text, "utf8") }));
}

/** Writes `samplePackage(...)` into `dir` (created); returns `dir`. */
export function writeSamplePackage(
  dir: string,
  name: string,
  version = "1.0.0",
  extra: Record<string, string> = {},
): string {
  for (const file of samplePackage(name, version, extra)) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.data);
  }
  return dir;
}

/** The .tgz of `samplePackage(...)`. */
export function sampleTarball(
  name: string,
  version = "1.0.0",
  extra: Record<string, string> = {},
): Uint8Array {
  return packTarball(samplePackage(name, version, extra));
}

/** A reply body as the tests read it: untyped JSON walked by assertions. */
// biome-ignore lint/suspicious/noExplicitAny: assertions check the shape, so the type would add nothing
export type JsonBody = any;

/** The JSON body of `response`. */
export async function jsonOf(response: Response): Promise<JsonBody> {
  return response.json();
}
