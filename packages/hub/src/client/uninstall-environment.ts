/**
 * `vf env uninstall owner/name`: the reverse of `installEnvironment`. In a project, `npm uninstall`
 * (package.json, lockfile and node_modules together); in vf's managed folder, the files and the
 * folder's own record of them.
 */
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { managedEnvironmentsDir } from "@vf-rl/core/loading";
import { parseEnvSpec } from "./env-spec.ts";
import { findProjectRoot, installedVersion, recordDependency } from "./install-environment.ts";
import { InstallError, npmRoot, runNpm } from "./npm-project.ts";

/** Options of `uninstallEnvironment`. */
export interface UninstallOptions {
  /** `owner/name` (a version, if given, is ignored: one version is installed at a time). */
  spec: string;
  cwd?: string;
  /** Remove it from the managed folder even inside a project. */
  global?: boolean;
}

/** What was removed. */
export interface UninstallResult {
  id: string;
  /** The version that was installed. */
  version: string;
  where: "project" | "managed";
  dir: string;
}

/** Uninstalls one environment; throws InstallError when it is not installed there. */
export async function uninstallEnvironment(options: UninstallOptions): Promise<UninstallResult> {
  const spec = parseEnvSpec(options.spec);
  const id = `${spec.owner}/${spec.name}`;
  const packageName = `@${spec.owner}/${spec.name}`;
  const project = options.global ? null : findProjectRoot(options.cwd ?? process.cwd());
  const root = project ? npmRoot(project) : managedEnvironmentsDir();
  const dir = join(root, "node_modules", packageName);
  const version = installedVersion(dir);
  if (version === null) {
    const where = project ? `the project at ${project}` : `vf's managed folder (${root})`;
    const other = project ? "; add -g for vf's managed folder" : "";
    throw new InstallError(`${id} is not installed in ${where}${other}`);
  }
  if (project) {
    await runNpm({ cwd: project, args: ["uninstall", packageName] });
  } else {
    rmSync(dir, { recursive: true, force: true });
    const manifest = join(root, "package.json");
    if (existsSync(manifest)) recordDependency(manifest, packageName, null);
  }
  return { id, version, where: project ? "project" : "managed", dir };
}
