/**
 * The `vf eval` command that evaluates what `vf train` or `vf sft` just wrote, on the environments it
 * was trained on: both print it when they end, ready to paste (`-m` takes the folder they printed).
 */
import { isAbsolute, relative } from "node:path";
import { vfCommand } from "../../vf-command.ts";

/** An environment a model was trained on: its id and loadEnvironment arguments. */
export interface TrainedEnv {
  id: string;
  args?: Record<string, unknown>;
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
    const args =
      env.args && Object.keys(env.args).length > 0 ? ` -a ${shellWord(JSON.stringify(env.args))}` : "";
    return vfCommand(`eval ${shellWord(env.id)} -m ${model}${args}`);
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
