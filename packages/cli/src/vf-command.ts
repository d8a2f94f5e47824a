/**
 * How a hint spells a vf command so that it runs where the user is. vf is installed in a project
 * (`npm install -D @vf-rl/cli`, as the README has it), where a bare `vf` answers "command not
 * found": there a hint says `npx vf ...`; with a `vf` on PATH (a global install) it says `vf ...`.
 * For what vf prints after it ran (next steps, install lines); `--help` examples keep `vf`.
 *
 * One such command is the `vf eval` that evaluates what `vf train` or `vf sft` just wrote, on the
 * environments it was trained on: both print it when they end, ready to paste (`-m` takes the
 * folder they printed).
 */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join, relative, sep } from "node:path";

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

/** An environment a model was trained on: its id and loadEnvironment arguments, and the agent it ran as. */
export interface TrainedEnv {
  id: string;
  args?: Record<string, unknown>;
  /** The harness, its options and the runtime a taskset ran with (train's `[env.agent]` tables). */
  agent?: { harness?: string; harnessOptions?: Record<string, unknown>; runtime?: string };
}

/**
 * One `vf eval` command per environment (`<env>` when none is known) with `folder` as the model,
 * written relative to the working folder when it is inside it.
 *
 * @example evalCommands([{ id: "reverse-text" }], "/home/ada/p/outputs/sft/final") // run in /home/ada/p
 * // ["npx vf eval reverse-text -m outputs/sft/final"]
 */
export function evalCommands(envs: readonly TrainedEnv[], folder: string): string[] {
  const model = shellWord(shortPath(folder));
  if (envs.length === 0) return [vfCommand(`eval <env> -m ${model}`)];
  const commands = envs.map((env) => {
    const json = (flag: string, value: Record<string, unknown> | undefined) =>
      value && Object.keys(value).length > 0 ? ` ${flag} ${shellWord(JSON.stringify(value))}` : "";
    const word = (flag: string, value: string | undefined) => (value ? ` ${flag} ${shellWord(value)}` : "");
    // as it was trained: a harness's options decide what its prompt holds (the bash-arithmetic
    // warm start's context has no room for the default tools' definitions)
    const agent =
      word("--harness", env.agent?.harness) +
      json("--harness-args", env.agent?.harnessOptions) +
      word("--runtime", env.agent?.runtime);
    return vfCommand(`eval ${shellWord(env.id)} -m ${model}${json("-a", env.args)}${agent}`);
  });
  return [...new Set(commands)];
}

/** `path` relative to the working folder when it lies inside it, else as given. */
function shortPath(path: string): string {
  const inside = relative(process.cwd(), path);
  return isAbsolute(path) && inside !== "" && !inside.startsWith("..") && !isAbsolute(inside) ? inside : path;
}

/** A word as a POSIX shell reads it back: as it is when it is plain, else in single quotes. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
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
