/**
 * Which files `npm pack` would put in the package in a folder, by npm's own code (npm-packlist, as
 * npm calls it): package.json `files`, `.npmignore` (else `.gitignore`) at any depth, the files npm
 * always includes (package.json, README, LICENSE, `main`, `bin`) and always leaves out
 * (package-lock.json, .git, .npmrc, node_modules, symbolic links, ...). A package that is a workspace
 * of a root above it also gets the ignore files of the folders between, as npm pack run in it does.
 * Not here: what the Hub itself never takes (package-path.ts), reading the files (collect-files.ts).
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import packlist from "npm-packlist";

/** Relative POSIX paths of the files `npm pack` run in `dir` would pack, sorted. */
export async function npmPackList(dir: string): Promise<string[]> {
  const path = realpathSync(dir);
  const root = workspaceRootOf(path);
  const files = await packlist(
    { path, package: readJson(join(path, "package.json")) ?? {}, isProjectRoot: true, edgesOut: new Map() },
    root ? { path, prefix: root, workspaces: [path] } : { path },
  );
  return files.sort();
}

/**
 * The workspace root that lists `dir` among its workspaces, as npm finds it: the nearest folder above
 * whose package.json `workspaces` (or `workspaces.packages`) has a pattern matching `dir`; null for a
 * package of its own.
 */
function workspaceRootOf(dir: string): string | null {
  for (let parent = dirname(dir); parent !== dirname(parent); parent = dirname(parent)) {
    const json = readJson(join(parent, "package.json"));
    if (!json) continue;
    const listed = json.workspaces as string[] | { packages?: string[] } | undefined;
    const patterns = Array.isArray(listed) ? listed : (listed?.packages ?? []);
    const path = relative(parent, dir).split(sep).join("/");
    if (patterns.some((pattern) => globPattern(pattern).test(`${path}/`))) return parent;
  }
  return null;
}

/**
 * A workspaces glob (`environments/*`, `packages/**`) as a regular expression over a relative folder
 * path written with a trailing `/`.
 */
function globPattern(pattern: string): RegExp {
  const segments = pattern.replace(/^\.\//, "").replace(/\/+$/, "").split("/");
  const source = segments
    .map((segment) =>
      segment === "**"
        ? "(?:[^/]+/)*"
        : `${segment
            .replace(/[.+^${}()|[\]\\]/g, "\\$&")
            .replace(/\*/g, "[^/]*")
            .replace(/\?/g, "[^/]")}/`,
    )
    .join("");
  return new RegExp(`^${source}$`);
}

function readJson(path: string): Record<string, unknown> | null {
  if (!existsSync(path)) return null;
  try {
    const value: unknown = JSON.parse(readFileSync(path, "utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    // An unreadable package.json of the package itself is reported by the manifest check that
    // follows; one above it is not a workspace root npm would use either.
    return null;
  }
}
