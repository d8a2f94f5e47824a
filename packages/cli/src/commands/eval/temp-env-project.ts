/**
 * For the CLI's tests only: a throwaway project folder holding environment packages written from
 * source text, as a user's project holds theirs (`./environments/<id>`), which the real `vf` binary
 * finds by id when run in that folder. Its node_modules is the repository's, so the packages import
 * this repository's @vf-rl/core and zod.
 */
import { mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_NODE_MODULES = fileURLToPath(new URL("../../../../../node_modules", import.meta.url));

/** A new project folder with the repository's node_modules. */
export async function tempProject(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  await symlink(REPO_NODE_MODULES, join(dir, "node_modules"), "dir");
  return dir;
}

/**
 * Writes (or rewrites) the environment package `id` of `project` with `source` as its entry;
 * `vf` adds to its manifest's vf field (`{ kind: "taskset" }` for a taskset).
 */
export async function writeEnvPackage(
  project: string,
  id: string,
  source: string,
  vf: Record<string, unknown> = {},
): Promise<string> {
  const dir = join(project, "environments", id);
  await mkdir(join(dir, "src"), { recursive: true });
  const manifest = {
    name: id,
    version: "0.0.1",
    type: "module",
    private: true,
    exports: { ".": "./src/index.ts" },
    vf: { id, numExamples: 3, rolloutsPerExample: 2, ...vf },
  };
  await writeFile(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  await writeFile(join(dir, "src", "index.ts"), source);
  return dir;
}
