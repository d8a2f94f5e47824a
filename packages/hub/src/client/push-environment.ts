/**
 * `vf env push [DIR]`: collect the files `npm pack` would pack from DIR (less what the Hub never
 * takes: dot-files, node_modules, outputs/), and push them as an npm-style .tgz. Idempotent: when the Hub already has this content the answer is `unchanged`
 * ("already at version X"), a success, and `--bump` then changes nothing. `--bump patch|minor`
 * rewrites the local package.json version (above both the local and the Hub's latest) before
 * pushing. `--dry-run` lists what would be sent and touches nothing.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import semver from "semver";
import type { PushResult, Visibility } from "../api/schemas/env-schemas.ts";
import { HubError } from "../hub-error.ts";
import { collectPackageFiles } from "../package/collect-files.ts";
import { contentHash, type PackageFile } from "../package/content-hash.ts";
import { readPackageManifest } from "../package/package-manifest.ts";
import { packTarball } from "../package/package-tarball.ts";
import type { HubClient } from "./hub-client.ts";

/** Options of `pushEnvironment`. */
export interface PushOptions {
  client: HubClient;
  /** The package folder; default the working folder. */
  dir?: string;
  /** Owner to push under; default the key's user. */
  owner?: string;
  visibility?: Visibility;
  bump?: "patch" | "minor";
  dryRun?: boolean;
  /**
   * Checks the package once its manifest is valid, before anything is listed or sent; throws to
   * refuse. The CLI loads the environment here (this library does not run environment code).
   */
  check?: (dir: string) => Promise<void>;
}

/** What a push did (or, for a dry run, would send). */
export type PushOutcome =
  | {
      type: "dry-run";
      id: string;
      version: string;
      contentHash: string;
      files: { path: string; size: number }[];
      tarballBytes: number;
    }
  | {
      type: "created" | "unchanged";
      id: string;
      version: string;
      contentHash: string;
      message: string;
      bumpedFrom: string | null;
      result: PushResult;
    };

/** Pushes the package in `dir`; see the file comment. */
export async function pushEnvironment(options: PushOptions): Promise<PushOutcome> {
  const dir = options.dir ?? process.cwd();
  let files = await collectPackageFiles(dir);
  let manifest = readPackageManifest(files);
  await options.check?.(dir);
  let hash = contentHash(files);
  if (options.dryRun) {
    const owner = options.owner ?? manifest.scope ?? "(you)";
    const version = options.bump
      ? (semver.inc(manifest.version, options.bump) ?? manifest.version)
      : manifest.version;
    return {
      type: "dry-run",
      id: `${owner}/${manifest.name}`,
      version,
      contentHash: hash,
      files: files.map((f) => ({ path: f.path, size: f.data.length })),
      tarballBytes: packTarball(files).length,
    };
  }
  const owner = options.owner ?? (await options.client.whoami()).user.name;
  const id = `${owner}/${manifest.name}`;
  let bumpedFrom: string | null = null;
  if (options.bump) {
    const existing = await findVersion(options.client, owner, manifest.name, hash);
    if (existing) return unchanged(options, owner, manifest.name, files, hash);
    const hubLatest = await latestSemver(options.client, owner, manifest.name);
    const base = hubLatest && semver.gt(hubLatest, manifest.version) ? hubLatest : manifest.version;
    const next = semver.inc(base, options.bump)!;
    bumpedFrom = manifest.version;
    rewriteVersion(join(dir, "package.json"), next);
    files = await collectPackageFiles(dir);
    manifest = readPackageManifest(files);
    hash = contentHash(files);
  }
  const result = await options.client.pushTarball(owner, manifest.name, packTarball(files), {
    contentHash: hash,
    ...(options.visibility ? { visibility: options.visibility } : {}),
  });
  return {
    type: result.status,
    id,
    version: result.version.semver,
    contentHash: hash,
    message: result.message,
    bumpedFrom,
    result,
  };
}

async function unchanged(
  options: PushOptions,
  owner: string,
  name: string,
  files: PackageFile[],
  hash: string,
): Promise<PushOutcome> {
  // Pushing the same bytes again is the cheapest way to get the Hub's own "unchanged" answer (and apply --visibility).
  const result = await options.client.pushTarball(owner, name, packTarball(files), {
    contentHash: hash,
    ...(options.visibility ? { visibility: options.visibility } : {}),
  });
  return {
    type: result.status,
    id: `${owner}/${name}`,
    version: result.version.semver,
    contentHash: hash,
    message: result.message,
    bumpedFrom: null,
    result,
  };
}

async function findVersion(client: HubClient, owner: string, name: string, hash: string) {
  try {
    return await client.version(owner, name, hash);
  } catch (error) {
    if (error instanceof HubError && error.code === "not_found") return null;
    throw error;
  }
}

async function latestSemver(client: HubClient, owner: string, name: string): Promise<string | null> {
  try {
    return (await client.envInfo(owner, name)).latest_version;
  } catch (error) {
    if (error instanceof HubError && error.code === "not_found") return null;
    throw error;
  }
}

/** Sets `version` in a package.json, keeping its indentation and key order. */
export function rewriteVersion(path: string, version: string): void {
  const text = readFileSync(path, "utf8");
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? "  ";
  const json = JSON.parse(text) as Record<string, unknown>;
  json.version = version;
  writeFileSync(path, `${JSON.stringify(json, null, indent)}${text.endsWith("\n") ? "\n" : ""}`);
}
