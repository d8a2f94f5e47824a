/**
 * `vf env install owner/name[@semver|@hash|@latest]`: downloads and verifies the version, then puts it
 * at `node_modules/@owner/name` of the current project (the nearest folder up with a package.json), or
 * of the managed folder `$VF_HOME/envs` (default `~/.vf/envs`) outside any project, where
 * `vf eval owner/name` finds it. It records the dependency in that package.json as the Hub's npm
 * tarball URL, so a later `npm install` keeps it rather than pruning it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { managedEnvironmentsDir } from "@vf-rl/core/loading";
import type { VersionInfo } from "../api/schemas/env-schemas.ts";
import { parseEnvSpec } from "./env-spec.ts";
import type { HubClient } from "./hub-client.ts";
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
  /** Record the dependency in package.json; default true. */
  save?: boolean;
}

/** Where and what was installed. */
export interface InstallResult {
  id: string;
  version: VersionInfo;
  /** The package's folder. */
  dir: string;
  where: "project" | "managed";
  /** The package.json the dependency was recorded in (null with `save: false`). */
  savedIn: string | null;
}

/** Installs one environment; see the file comment. */
export async function installEnvironment(options: InstallOptions): Promise<InstallResult> {
  const spec = parseEnvSpec(options.spec);
  const { version, files } = await downloadVerified(options.client, spec);
  const project = options.global ? null : findProjectRoot(options.cwd ?? process.cwd());
  const root = project ?? ensureManagedRoot();
  const dir = join(root, "node_modules", `@${spec.owner}`, spec.name);
  writePackage(dir, files);
  let savedIn: string | null = null;
  if (options.save ?? true) {
    savedIn = join(root, "package.json");
    const url = `${options.client.url}/npm/@${spec.owner}/${spec.name}/-/${spec.name}-${version.semver}.tgz`;
    recordDependency(savedIn, `@${spec.owner}/${spec.name}`, url);
  }
  return { id: `${spec.owner}/${spec.name}`, version, dir, where: project ? "project" : "managed", savedIn };
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

/** The managed folder, with its own package.json. */
function ensureManagedRoot(): string {
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

function recordDependency(path: string, name: string, spec: string): void {
  const text = readFileSync(path, "utf8");
  const json = JSON.parse(text) as { dependencies?: Record<string, string> };
  json.dependencies = { ...json.dependencies, [name]: spec };
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? "  ";
  writeFileSync(path, `${JSON.stringify(json, null, indent)}\n`);
}
