/**
 * How a hint spells a vf command so that it runs where the user is. vf is installed in a project
 * (`npm install -D @vf-rl/cli`, as the README has it), where a bare `vf` answers "command not
 * found": there a hint says `npx vf ...`; with a `vf` on PATH (a global install) it says `vf ...`.
 * For what vf prints after it ran (next steps, install lines); `--help` examples keep `vf`.
 */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join, sep } from "node:path";

export interface VfCommandOptions {
  /** The PATH searched for `vf`; default `process.env.PATH`. */
  path?: string;
}

/**
 * `args` as a command to run, e.g. `vfCommand("eval ./environments/my-env")` is
 * `npx vf eval ./environments/my-env`, or `vf eval ./environments/my-env` with `vf` on PATH.
 */
export function vfCommand(args: string, options: VfCommandOptions = {}): string {
  return `${vfOnPath(options.path ?? process.env.PATH ?? "") ? "vf" : "npx vf"} ${args}`;
}

/**
 * Whether a shell finds `vf` in PATH. Folders ending in node_modules/.bin do not count: npx and npm
 * scripts put the project's there for the command they run, and the user's own shell lacks it.
 */
function vfOnPath(path: string): boolean {
  const names = process.platform === "win32" ? ["vf.cmd", "vf.exe"] : ["vf"];
  const bin = `${sep}node_modules${sep}.bin`;
  return path
    .split(delimiter)
    .filter((dir) => dir !== "" && !dir.replace(/[\\/]+$/, "").endsWith(bin))
    .some((dir) => names.some((name) => isExecutable(join(dir, name))));
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false; // not there, or not runnable: not a command the shell would find
  }
}
