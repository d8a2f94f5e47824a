/**
 * A user's npm project as `vf env install` sees it: where npm keeps its config and lockfile (the
 * workspace root when the project is a workspace member), the scope line in .npmrc that sends
 * `@owner/*` to the Hub's registry, and the npm command itself. Installing through npm keeps
 * package.json, package-lock.json and node_modules consistent, so `npm ci` reinstalls the
 * environment from the Hub like any other dependency.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { UserError } from "@vf-rl/core/errors";

/** An install or uninstall that npm or the project's setup refused; the message says what to do. */
export class InstallError extends UserError {}

/** The folder whose .npmrc and package-lock.json npm uses for `project`. */
export function npmRoot(project: string): string {
  let dir = dirname(resolve(project));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && isWorkspaceOf(manifest, project)) return dir;
    const parent = dirname(dir);
    if (parent === dir) return resolve(project);
    dir = parent;
  }
}

function isWorkspaceOf(manifest: string, project: string): boolean {
  let json: { workspaces?: unknown };
  try {
    json = JSON.parse(readFileSync(manifest, "utf8"));
  } catch {
    return false;
  }
  const patterns = Array.isArray(json.workspaces)
    ? json.workspaces
    : ((json.workspaces as { packages?: unknown } | undefined)?.packages ?? []);
  const path = relative(dirname(manifest), resolve(project)).split(sep).join("/");
  return (patterns as unknown[]).some((p) => typeof p === "string" && globToRegExp(p).test(path));
}

/** A workspace glob (`packages/*`, `envs/**`, `tools/cli`) as a regular expression over paths. */
export function globToRegExp(glob: string): RegExp {
  const body = glob
    .replace(/^\.\//, "")
    .replace(/\/+$/, "")
    .split("/")
    .map((part) => (part === "**" ? ".*" : part.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")))
    .join("/");
  return new RegExp(`^${body}$`);
}

/**
 * Makes the .npmrc of `root` send the scope `@owner` to `registry`. A scope already sent elsewhere
 * is refused: it belongs to another registry the user set up.
 */
export function mapScope(root: string, owner: string, registry: string): { added: boolean } {
  const path = join(root, ".npmrc");
  const text = existsSync(path) ? readFileSync(path, "utf8") : "";
  const key = `@${owner}:registry`;
  const line = text.split(/\r?\n/).find((l) => l.replace(/\s/g, "").startsWith(`${key}=`));
  if (line !== undefined) {
    const current = line.slice(line.indexOf("=") + 1).trim();
    if (current.replace(/\/+$/, "") === registry.replace(/\/+$/, "")) return { added: false };
    throw new InstallError(
      `${path} sends @${owner} packages to ${current}, not to this Hub (${registry}): remove that line, or install with -g into vf's managed folder`,
    );
  }
  const separator = text === "" || text.endsWith("\n") ? "" : "\n";
  writeFileSync(path, `${text}${separator}${key}=${registry}\n`);
  return { added: true };
}

/** Options of `runNpm`. */
export interface RunNpmOptions {
  cwd: string;
  args: string[];
  /** An npm config `key=value` passed on the command line only (never written to a file). */
  secretConfig?: string;
}

/** Runs npm; resolves with its output, or throws an InstallError with npm's own last lines. */
export async function runNpm(options: RunNpmOptions): Promise<string> {
  const [command, prefix] = npmCommand();
  const args = [...prefix, ...options.args, "--no-audit", "--no-fund", "--loglevel=error"];
  if (options.secretConfig) args.push(`--${options.secretConfig}`);
  return await new Promise((resolvePromise, reject) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, maxBuffer: 16 * 1024 * 1024, timeout: 10 * 60_000 },
      (error, stdout, stderr) => {
        if (!error) return resolvePromise(`${stdout}${stderr}`);
        const shown = `npm ${options.args.join(" ")}`;
        const detail = `${stderr}`.trim().split("\n").slice(-4).join(" | ") || error.message;
        reject(new InstallError(`${shown} failed in ${options.cwd}: ${detail}`));
      },
    );
  });
}

/** npm as vf was started with it (`npx vf` sets npm_execpath), else the `npm` on PATH. */
function npmCommand(): [string, string[]] {
  const execPath = process.env.npm_execpath;
  if (execPath && /npm-cli\.js$/.test(execPath)) return [process.execPath, [execPath]];
  return [process.platform === "win32" ? "npm.cmd" : "npm", []];
}
