/**
 * Loads an environment by id (see `findEnvironment`): imports the package's entry, checks that it
 * exports `loadEnvironment(args)`, calls it with the arguments, and stamps the id and arguments on
 * the environment. The entry may be TypeScript or built JavaScript (see `importEntry`). A taskset
 * package is refused by name (load-taskset.ts loads those).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Environment } from "../envs/environment.ts";
import { EnvArgsError, UserError } from "../errors.ts";
import type { EnvPackageJson } from "./env-manifest.ts";
import { type FindOptions, findEnvironment } from "./find-environment.ts";
import { importEntry } from "./import-entry.ts";

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

/**
 * Finds environment `id` (see `findEnvironment`), imports its entry (TypeScript or JavaScript, with
 * this core as its `@vf-rl/core`) and calls `loadEnvironment(args)`; bad args are an `EnvArgsError`.
 */
export async function loadEnvironmentById(id: string, options: LoadOptions = {}): Promise<LoadedEnvironment> {
  const found = findEnvironment(id, options);
  if (found.packageJson.vf.kind === "taskset") {
    // Its entry exports loadTaskset, so the missing loadEnvironment would be the wrong lead.
    throw new UserError(
      `"${found.hubId ?? found.packageJson.vf.id}" is a taskset ("kind": "taskset"), not an environment: its tasks are worked on by an agent program, so run it with a harness, or load it with loadTaskset`,
    );
  }
  const entry = entryFile(found.dir, found.packageJson);
  let mod: Record<string, unknown>;
  try {
    mod = await importEntry(entry, found.dir);
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
  if (!(env instanceof Environment)) {
    throw new UserError(
      `loadEnvironment of "${id}" (${entry}) returned ${describe(env)}, not an Environment of the @vf-rl/core vf runs with: return a SingleTurnEnv, MultiTurnEnv, ToolEnv or another Environment built with @vf-rl/core`,
    );
  }
  // A Hub package keeps its owner in the id, so saved runs and reports name the exact environment.
  return { env, id: found.hubId ?? found.packageJson.vf.id, dir: found.dir, packageJson: found.packageJson };
}

function describe(value: unknown): string {
  if (value === null || typeof value !== "object") return String(value);
  return `an object of class ${value.constructor?.name ?? "Object"}`;
}

/**
 * The module exporting `loadEnvironment`: `vf.entry`, else the package's main export (its TypeScript
 * source where the package ships one under the "vf-source" condition, else its JavaScript).
 */
export function entryFile(dir: string, pkg: EnvPackageJson): string {
  const candidates = [
    pkg.vf.entry,
    ...mainExports(pkg.exports),
    pkg.main,
    "src/index.ts",
    "index.ts",
    "index.js",
  ];
  for (const candidate of candidates) {
    if (candidate && existsSync(join(dir, candidate))) return join(dir, candidate);
  }
  throw new UserError(
    `${join(dir, "package.json")} names no entry file that exists: set "vf": { "entry": "src/index.ts" }`,
  );
}

/** The files the package's "." export names, in the order vf prefers them. */
function mainExports(exports: unknown): string[] {
  if (typeof exports === "string") return [exports];
  if (typeof exports !== "object" || exports === null) return [];
  const root = (exports as Record<string, unknown>)["."] ?? exports;
  if (typeof root === "string") return [root];
  if (typeof root !== "object" || root === null) return [];
  const conditions = root as Record<string, unknown>;
  return ["vf-source", "import", "node", "default"]
    .map((key) => conditions[key])
    .filter((target): target is string => typeof target === "string");
}
