/**
 * Loads a taskset package by id: a package whose `vf` field says `"kind": "taskset"` and whose entry
 * exports `loadTaskset(args)` (verifiers v1's taskset). Found like an environment (`findEnvironment`),
 * imported like one; bad args are an `EnvArgsError` naming the taskset.
 *
 * @example
 * const { taskset } = await loadTasksetById("coding-tasks", { args: { numEval: 2 } });
 */
import type { Taskset } from "../agents/taskset.ts";
import { EnvArgsError, UserError } from "../errors.ts";
import type { FoundEnvironment } from "./find-environment.ts";
import { importEntry } from "./import-entry.ts";
import { entryFile } from "./load-environment.ts";

/** A loaded taskset with the package it came from. */
export interface LoadedTaskset {
  taskset: Taskset;
  /** The package's `vf.id` (with its owner, for a Hub package). */
  id: string;
  dir: string;
  packageJson: FoundEnvironment["packageJson"];
}

/** Imports the taskset package `found` (see `findEnvironment`) and calls its `loadTaskset(args)`. */
export async function loadTaskset(
  found: FoundEnvironment,
  args: Record<string, unknown> = {},
): Promise<LoadedTaskset> {
  const id = found.packageJson.vf.id;
  const entry = entryFile(found.dir, found.packageJson);
  let mod: Record<string, unknown>;
  try {
    mod = await importEntry(entry, found.dir);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new UserError(`cannot load taskset "${id}" from ${entry}: ${detail}`, { cause: error });
  }
  const load = mod.loadTaskset ?? (mod.default as Record<string, unknown> | undefined)?.loadTaskset;
  if (typeof load !== "function") {
    throw new UserError(
      `${entry} does not export loadTaskset(args), which a package of "kind": "taskset" must: export one returning a Taskset`,
    );
  }
  let taskset: unknown;
  try {
    taskset = await load(args);
  } catch (error) {
    if (error instanceof EnvArgsError) throw new EnvArgsError(id, error.issues);
    throw error;
  }
  if (!isTaskset(taskset)) {
    throw new UserError(
      `loadTaskset of "${id}" (${entry}) returned no taskset: return an object with id, tasks({ split }) and score(context)`,
    );
  }
  return { taskset, id: found.hubId ?? id, dir: found.dir, packageJson: found.packageJson };
}

function isTaskset(value: unknown): value is Taskset {
  const candidate = value as Partial<Taskset> | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.id === "string" &&
    typeof candidate.tasks === "function" &&
    typeof candidate.score === "function"
  );
}
