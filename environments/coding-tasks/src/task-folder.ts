/**
 * A task's folder, `tasks/<id>/`, read into memory:
 *
 *   issue.md   what the user asks (the prompt)
 *   repo/      the working folder the agent starts from (the task's `files`)
 *   hidden/    tests the agent never sees, run after it finished (hidden-tests tasks)
 *   fix/       the reference fix: files written over repo/ (answer-file tasks: the answer file)
 *
 * The folder sits beside src/ and dist/, so it is found the same from sources and from the build.
 */
import type { Dirent } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { SystemError } from "@vf-rl/core/errors";

/** The folder holding every task's folder. */
export const TASKS_DIR = fileURLToPath(new URL("../tasks/", import.meta.url));

/** A task's texts, each set of files by path relative to its folder (with `/` separators). */
export interface TaskFolder {
  issue: string;
  repo: Record<string, string>;
  hidden: Record<string, string>;
  fix: Record<string, string>;
}

/** Reads `tasks/<id>/`; a missing issue.md or repo/ is a fault of the package. */
export async function readTaskFolder(id: string, tasksDir = TASKS_DIR): Promise<TaskFolder> {
  const dir = join(tasksDir, id);
  const [issue, repo, hidden, fix] = await Promise.all([
    readFile(join(dir, "issue.md"), "utf8"),
    readFiles(join(dir, "repo")),
    readFiles(join(dir, "hidden")),
    readFiles(join(dir, "fix")),
  ]);
  if (Object.keys(repo).length === 0)
    throw new SystemError(`${dir}/repo holds no files: add the task's repository`);
  return { issue: issue.trim(), repo, hidden, fix };
}

/** Every file under `dir` by relative path; none when `dir` does not exist. */
async function readFiles(dir: string): Promise<Record<string, string>> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
  const files: Record<string, string> = {};
  const paths = entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    // Python's caches, should anyone have run a task's tests in place.
    .filter((path) => !path.includes(`${sep}__pycache__${sep}`))
    .sort();
  for (const path of paths) files[relative(dir, path).split(sep).join("/")] = await readFile(path, "utf8");
  return files;
}
