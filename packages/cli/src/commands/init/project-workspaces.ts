/**
 * The npm project `vf init` writes into, and its `workspaces`. A new environment joins the
 * project's workspaces, so the project's one `npm install` serves the environment too: its tests run
 * with the project's vitest, and it imports the project's @vf-rl/core (the one vf shares its classes
 * with) instead of installing a second copy of vf beside it.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { UserError } from "@vf-rl/core/errors";

/** The nearest folder above `dir` that holds a package.json; undefined outside any npm project. */
export function enclosingProject(dir: string): string | undefined {
  for (let folder = dirname(dir); ; folder = dirname(folder)) {
    if (existsSync(join(folder, "package.json"))) return folder;
    if (dirname(folder) === folder) return undefined;
  }
}

/**
 * The workspace pattern that covers the package in `dir` and its future siblings: its parent
 * folder's packages, relative to the project (`environments/*`), or the folder itself when it sits
 * at the project's top.
 */
export function workspacePattern(project: string, dir: string): string {
  const parent = relative(project, dirname(dir)).split(sep).join("/");
  return parent === "" ? relative(project, dir).split(sep).join("/") : `${parent}/*`;
}

/**
 * Adds `pattern` to the `workspaces` of `project`'s package.json (made when absent; its
 * `{ "packages": [...] }` form kept), leaving every other key and the file's indentation as they are.
 */
export function addWorkspace(project: string, pattern: string): void {
  const file = join(project, "package.json");
  const text = readFileSync(file, "utf8");
  let manifest: { workspaces?: string[] | { packages?: string[] } };
  try {
    manifest = JSON.parse(text);
  } catch (error) {
    throw new UserError(
      `${file} is not valid JSON (${(error as Error).message}): fix it, then run vf init again`,
    );
  }
  const { workspaces } = manifest;
  if (workspaces === undefined) manifest.workspaces = [pattern];
  else if (Array.isArray(workspaces)) workspaces.push(pattern);
  else workspaces.packages = [...(workspaces.packages ?? []), pattern];
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? "  ";
  writeFileSync(file, `${JSON.stringify(manifest, null, indent)}\n`);
}
