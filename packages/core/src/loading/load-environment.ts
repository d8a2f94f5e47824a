/**
 * Loads an environment by id (see `findEnvironment`): imports the package's entry, checks that it
 * exports `loadEnvironment(args)`, calls it with the arguments, and stamps the id and arguments on
 * the environment. TypeScript entries load when the process runs under tsx (as `vf` does).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Environment } from "../envs/environment.ts";
import { EnvArgsError, UserError } from "../errors.ts";
import type { EnvPackageJson } from "./env-manifest.ts";
import { type FindOptions, findEnvironment } from "./find-environment.ts";

export interface LoadOptions extends FindOptions {
  /** Arguments for the package's `loadEnvironment`. */
  args?: Record<string, unknown>;
}

export interface LoadedEnvironment {
  // biome-ignore lint/suspicious/noExplicitAny: environments of any state type
  env: Environment<any>;
  /** The package's `vf.id`. */
  id: string;
  dir: string;
  packageJson: EnvPackageJson;
}

export async function loadEnvironmentById(id: string, options: LoadOptions = {}): Promise<LoadedEnvironment> {
  const found = findEnvironment(id, options);
  const entry = entryFile(found.dir, found.packageJson);
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(entry).href)) as Record<string, unknown>;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new UserError(`cannot load environment "${id}" from ${entry}: ${detail}`, { cause: error });
  }
  const load = mod.loadEnvironment ?? (mod.default as Record<string, unknown> | undefined)?.loadEnvironment;
  if (typeof load !== "function") {
    throw new UserError(
      `${entry} does not export loadEnvironment(args): export one, e.g. with defineEnvironment({ args, load })`,
    );
  }
  const args = options.args ?? {};
  let env: Environment;
  try {
    env = await load(args);
  } catch (error) {
    if (error instanceof EnvArgsError) throw new EnvArgsError(found.packageJson.vf.id, error.issues);
    throw error;
  }
  // A Hub package keeps its owner in the id, so saved runs and reports name the exact environment.
  const envId = found.hubId ?? found.packageJson.vf.id;
  env.envId = envId;
  env.envArgs = args;
  return { env, id: envId, dir: found.dir, packageJson: found.packageJson };
}

/** The module exporting `loadEnvironment`: `vf.entry`, else the package's main export. */
export function entryFile(dir: string, pkg: EnvPackageJson): string {
  const exported = mainExport(pkg.exports);
  const candidates = [pkg.vf.entry, exported, pkg.main, "src/index.ts", "index.ts", "index.js"];
  for (const candidate of candidates) {
    if (candidate && existsSync(join(dir, candidate))) return join(dir, candidate);
  }
  throw new UserError(
    `${join(dir, "package.json")} names no entry file that exists: set "vf": { "entry": "src/index.ts" }`,
  );
}

function mainExport(exports: unknown): string | undefined {
  if (typeof exports === "string") return exports;
  if (typeof exports !== "object" || exports === null) return undefined;
  const root = (exports as Record<string, unknown>)["."] ?? exports;
  if (typeof root === "string") return root;
  if (typeof root === "object" && root !== null) {
    const conditions = root as Record<string, unknown>;
    for (const key of ["import", "default", "node"]) {
      if (typeof conditions[key] === "string") return conditions[key] as string;
    }
  }
  return undefined;
}
