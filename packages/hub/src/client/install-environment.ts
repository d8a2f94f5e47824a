/**
 * `vf env install owner/name[@semver|@hash|@latest]`: downloads and verifies the version, then puts it
 * where `vf eval owner/name` finds it.
 *
 * - In a project (the nearest folder up with a package.json) it runs `npm install
 *   @owner/name@<semver> --save-exact` with the scope `@owner` sent to the Hub's registry in the
 *   project's .npmrc, so package.json, the lockfile and node_modules agree and `npm ci` reinstalls
 *   it. The installed files must hash to the version's content hash, as the download did.
 * - Outside any project, or with `global`, it writes the files into vf's managed folder
 *   (`$VF_HOME/envs`, default `~/.vf/envs`), which has no npm project of the user's to keep in step,
 *   and links vf's own copies of the package's peers there (host-peers.ts).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { managedEnvironmentsDir } from "@vf-rl/core/loading";
import type { VersionInfo } from "../api/schemas/env-schemas.ts";
import { readUnpackedPackage } from "../package/collect-files.ts";
import { contentHash } from "../package/content-hash.ts";
import { parseEnvSpec } from "./env-spec.ts";
import { provideHostPeers } from "./host-peers.ts";
import type { HubClient } from "./hub-client.ts";
import { InstallError, mapScope, npmRoot, runNpm } from "./npm-project.ts";
import { downloadVerified } from "./verified-download.ts";
import { writePackage } from "./write-package.ts";

/** Options of `installEnvironment`. */
export interface InstallOptions {
  client: HubClient;
  /** `owner/name[@ref]` */
  spec: string;
  /** Where to look for a project; default the working folder. */
  cwd?: string;
  /** Install into the managed folder even inside a project. */
  global?: boolean;
}

/** Where and what was installed. */
export interface InstallResult {
  id: string;
  version: VersionInfo;
  /** The package's folder. */
  dir: string;
  where: "project" | "managed";
  /** The project whose package.json records it (the managed folder's own, outside a project). */
  savedIn: string;
  /** The version this one replaced, when another was installed there. */
  replaced: string | null;
  /** The .npmrc that now sends `@owner` to the Hub, when this install added that line. */
  scopeAddedTo: string | null;
  /** What the caller should show as warnings: in the managed folder, a peer vf has no copy of. */
  warnings: string[];
}

/** Installs one environment; see the file comment. */
export async function installEnvironment(options: InstallOptions): Promise<InstallResult> {
  const spec = parseEnvSpec(options.spec);
  const { version, files } = await downloadVerified(options.client, spec);
  const id = `${spec.owner}/${spec.name}`;
  const packageName = `@${spec.owner}/${spec.name}`;
  const project = options.global ? null : findProjectRoot(options.cwd ?? process.cwd());
  if (!project) {
    const root = ensureManagedRoot();
    const dir = join(root, "node_modules", packageName);
    const replaced = installedVersion(dir);
    writePackage(dir, files);
    recordDependency(join(root, "package.json"), packageName, version.semver);
    const warnings = provideHostPeers(root, dir).map(
      (peer) => `${id} expects "${peer}" from its host and vf has no copy: install it in ${root}`,
    );
    return { id, version, dir, where: "managed", savedIn: root, replaced, scopeAddedTo: null, warnings };
  }
  const root = npmRoot(project);
  const registry = `${options.client.url}/npm/`;
  const { added } = mapScope(root, spec.owner, registry);
  const dir = join(root, "node_modules", packageName);
  const replaced = installedVersion(dir);
  await runNpm({
    cwd: project,
    args: ["install", `${packageName}@${version.semver}`, "--save-exact"],
    ...(options.client.apiKey ? { secretConfig: `${authKey(registry)}=${options.client.apiKey}` } : {}),
  });
  const installed = contentHash(readUnpackedPackage(dir));
  if (installed !== version.content_hash) {
    throw new InstallError(
      `npm installed ${id}@${version.semver} into ${dir} with content ${installed}, not the Hub's ${version.content_hash}: run vf env uninstall ${id} and install again`,
    );
  }
  return {
    id,
    version,
    dir,
    where: "project",
    savedIn: project,
    replaced,
    scopeAddedTo: added ? join(root, ".npmrc") : null,
    warnings: [],
  };
}

/** The nearest folder at or above `cwd` with a package.json, or null. */
export function findProjectRoot(cwd: string): string | null {
  let dir = resolve(cwd);
  const managed = resolve(managedEnvironmentsDir());
  for (;;) {
    if (dir !== managed && existsSync(join(dir, "package.json"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** The version of the package installed in `dir`, or null. */
export function installedVersion(dir: string): string | null {
  try {
    return (
      (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version?: string }).version ?? null
    );
  } catch {
    return null;
  }
}

/** npm's config key for a registry's token: `//host/path/:_authToken`. */
function authKey(registry: string): string {
  const url = new URL(registry);
  return `//${url.host}${url.pathname}:_authToken`;
}

/** The managed folder, with its own package.json. */
export function ensureManagedRoot(): string {
  const root = managedEnvironmentsDir();
  mkdirSync(root, { recursive: true });
  const manifest = join(root, "package.json");
  if (!existsSync(manifest)) {
    writeFileSync(
      manifest,
      `${JSON.stringify({ name: "vf-managed-environments", private: true, dependencies: {} }, null, 2)}\n`,
    );
  }
  return root;
}

/** Sets (or, with `spec` null, removes) `name` in the dependencies of the package.json at `path`. */
export function recordDependency(path: string, name: string, spec: string | null): void {
  const text = readFileSync(path, "utf8");
  const json = JSON.parse(text) as { dependencies?: Record<string, string> };
  const dependencies = { ...json.dependencies };
  if (spec === null) delete dependencies[name];
  else dependencies[name] = spec;
  json.dependencies = dependencies;
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? "  ";
  writeFileSync(path, `${JSON.stringify(json, null, indent)}\n`);
}
