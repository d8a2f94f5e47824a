/**
 * Finds an environment package by id: a path to a package folder, a bare id (`reverse-text`) among
 * the local environments folder (`./environments/*`, or `envDir`) and installed packages, or a Hub id (`owner/name[@version]`) among installed
 * packages. Installed packages are looked up in the `node_modules` folders from the working folder
 * upward, in vf's own installation (the bundled environments) and in the managed folder where
 * `vf env install` puts packages outside a project. The same places answer for a path inside an
 * installed package (`findPackagePath`), such as the warm-start checkpoint an environment ships.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { EnvironmentNotFoundError, EnvironmentNotInstalledError, UserError } from "../errors.ts";
import { issueLines } from "../schema-issues.ts";
import { EnvPackageJson } from "./env-manifest.ts";

/** An environment package found by `findEnvironment`: its folder and manifest. */
export interface FoundEnvironment {
  /** Folder of the package. */
  dir: string;
  packageJson: EnvPackageJson;
  /** `owner/name` when it was found as a Hub package. */
  hubId?: string;
}

export interface FindOptions {
  /** Where relative paths and the environments folder are resolved; default the working folder. */
  cwd?: string;
  /**
   * The folder of local environment packages, looked up first by bare id (`<envDir>/<id>`);
   * default `<cwd>/environments` (verifiers' `--env-dir-path`).
   */
  envDir?: string;
}

/**
 * vf's own environments, each the npm package `@vf-env/<id>`, installed on its own (the CLI brings
 * reverse-text): one of them not found is named with the line that installs it.
 */
export const VF_ENVIRONMENTS: readonly string[] = [
  "alphabet-sort",
  "bash-arithmetic",
  "coding-tasks",
  "gsm8k",
  "gsm8k-calculator",
  "python",
  "reverse-text",
  "tool-arithmetic",
  "wiki-search",
  "wordle",
];

/** A version label (`1.2.0`, `1.2.0-rc.1`), as opposed to `latest` or a content hash. */
const SEMVER = /^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]*)?$/;

/** The folder `vf env install` uses outside a project: `$VF_HOME/envs` (default `~/.vf/envs`). */
export function managedEnvironmentsDir(): string {
  return join(process.env.VF_HOME ?? join(homedir(), ".vf"), "envs");
}

/**
 * The package of environment `id`: a package folder's path, a bare id (`<envDir>/<id>`, then
 * installed packages, bundled ones included), or a Hub id `owner/name[@version]` among installed
 * packages. Throws `EnvironmentNotFoundError` naming the known ids, or that it is not installed
 * (`EnvironmentNotInstalledError` for one of `VF_ENVIRONMENTS`; `notInstalled` for a Hub id, also
 * when `@version` names a version label other than the one installed).
 */
export function findEnvironment(id: string, options: FindOptions = {}): FoundEnvironment {
  const cwd = options.cwd ?? process.cwd();
  // A folder that exists wins over a Hub id of the same spelling ("envs/my-env" is a path here).
  if (looksLikePath(id) || existsSync(join(resolve(cwd, id), "package.json"))) {
    const dir = resolve(cwd, id);
    if (!existsSync(join(dir, "package.json"))) {
      throw new EnvironmentNotFoundError(
        id,
        `${dir} has no package.json: point at an environment package folder`,
      );
    }
    return { dir, packageJson: readManifest(dir) };
  }
  const { name, owner, version } = parseEnvId(id);
  const candidates = owner ? [`@${owner}/${name}`] : [name, `@vf-env/${name}`];
  const local = join(localEnvironmentsDir(cwd, options), name);
  if (!owner && existsSync(join(local, "package.json")))
    return { dir: local, packageJson: readManifest(local) };
  for (const root of nodeModulesRoots(cwd)) {
    for (const candidate of candidates) {
      const dir = join(root, candidate);
      if (!existsSync(join(dir, "package.json"))) continue;
      const packageJson = readManifest(dir);
      if (owner) {
        // A version label asked for and another installed: running it would measure the wrong version.
        if (version !== undefined && SEMVER.test(version) && packageJson.version !== version) {
          throw new EnvironmentNotFoundError(
            id,
            `${owner}/${name}@${packageJson.version} is installed here (${dir}), not ${version}`,
            true,
          );
        }
        return { dir, packageJson, hubId: `${owner}/${name}` };
      }
      if (packageJson.vf.id === name) return { dir, packageJson };
    }
  }
  const known = listEnvironments(options).map((e) => e.packageJson.vf.id);
  if (owner) {
    throw new EnvironmentNotFoundError(
      id,
      "no installed package has this id, in this project or vf's own folder: install it from its Hub",
      true,
    );
  }
  if (VF_ENVIRONMENTS.includes(name)) throw new EnvironmentNotInstalledError(name, `@vf-env/${name}`);
  const hint = `known environments: ${[...new Set(known)].sort().join(", ") || "none"}; or pass a path to a package folder`;
  throw new EnvironmentNotFoundError(id, hint);
}

/** Every environment package reachable from `cwd`, nearest first. */
export function listEnvironments(options: FindOptions = {}): FoundEnvironment[] {
  const cwd = options.cwd ?? process.cwd();
  const found: FoundEnvironment[] = [];
  const dirs = [localEnvironmentsDir(cwd, options)];
  for (const root of nodeModulesRoots(cwd)) {
    dirs.push(root, join(root, "@vf-env"));
    for (const scope of safeList(root).filter((n) => n.startsWith("@") && n !== "@vf-env")) {
      dirs.push(join(root, scope));
    }
  }
  for (const parent of dirs) {
    for (const entry of safeList(parent)) {
      const dir = join(parent, entry);
      const file = join(dir, "package.json");
      if (!existsSync(file)) continue;
      const parsed = EnvPackageJson.safeParse(readJson(file));
      if (parsed.success) found.push({ dir, packageJson: parsed.data });
    }
  }
  return found;
}

/** Splits `owner/name@version` into its parts; `name` alone has no owner. */
export function parseEnvId(id: string): { owner?: string; name: string; version?: string } {
  const at = id.lastIndexOf("@");
  const base = at > 0 ? id.slice(0, at) : id;
  const version = at > 0 ? id.slice(at + 1) : undefined;
  const slash = base.indexOf("/");
  const parts = slash >= 0 ? { owner: base.slice(0, slash), name: base.slice(slash + 1) } : { name: base };
  return version ? { ...parts, version } : parts;
}

/**
 * Where `path` is: `path` itself when it exists (relative to `cwd`), else inside an installed
 * package when it starts with one's name as an import would (`@vf-env/bash-arithmetic/warm-start`),
 * looked up where environments are. A config copied out of a repository can then name what a
 * package ships, such as an environment's warm-start checkpoint, in any project that installs it.
 * Undefined when it is neither.
 */
export function findPackagePath(path: string, options: FindOptions = {}): string | undefined {
  const cwd = options.cwd ?? process.cwd();
  if (existsSync(resolve(cwd, path))) return path;
  const name = packageNameOf(path);
  if (name === undefined) return undefined;
  for (const root of nodeModulesRoots(cwd)) {
    const inside = join(root, path);
    if (existsSync(inside)) return inside;
  }
  return undefined;
}

/** The package a path inside one starts with (`@vf-env/bash-arithmetic` of `@vf-env/bash-arithmetic/warm-start`), if any. */
export function packageNameOf(path: string): string | undefined {
  if (looksLikePath(path)) return undefined;
  return /^((?:@[^/@.][^/]*\/)?[^/@.][^/]*)\/./.exec(path)?.[1];
}

function localEnvironmentsDir(cwd: string, options: FindOptions): string {
  return options.envDir === undefined ? join(cwd, "environments") : resolve(cwd, options.envDir);
}

function looksLikePath(id: string): boolean {
  return id.startsWith(".") || id.startsWith("/") || id.startsWith("~") || /^[A-Za-z]:[\\/]/.test(id);
}

function nodeModulesRoots(cwd: string): string[] {
  const roots: string[] = [];
  let dir = resolve(cwd);
  for (;;) {
    roots.push(join(dir, "node_modules"));
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  // vf's own installation, where the bundled environments are.
  let own = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(own, "node_modules");
    if (existsSync(candidate) && !roots.includes(candidate)) roots.push(candidate);
    const parent = dirname(own);
    if (parent === own) break;
    own = parent;
  }
  roots.push(join(managedEnvironmentsDir(), "node_modules"));
  return roots.filter((root) => isDir(root));
}

function readManifest(dir: string): EnvPackageJson {
  const file = join(dir, "package.json");
  const parsed = EnvPackageJson.safeParse(readJson(file));
  if (!parsed.success) {
    throw new UserError(
      `${file} is not an environment package: ${issueLines(parsed.error)[0]}: add a "vf" field such as {"id": "my-env"}`,
    );
  }
  return parsed.data;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new UserError(`cannot read ${file}: ${detail}`);
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
