/**
 * A throwaway user project for end-to-end tests: a temp folder whose node_modules links vf's own
 * packages, as an installed project would have them.
 */
import { mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const repo = resolve(import.meta.dirname, "..", "..", "..");

export interface TempProject {
  dir: string;
  remove(): Promise<void>;
}

export async function tempProject(): Promise<TempProject> {
  const dir = await mkdtemp(join(tmpdir(), "vf-project-"));
  await mkdir(join(dir, "node_modules", "@vf-rl"), { recursive: true });
  for (const pkg of ["core", "agents"])
    await symlink(join(repo, "packages", pkg), join(dir, "node_modules", "@vf-rl", pkg));
  for (const dep of ["zod", "vitest"])
    await symlink(join(repo, "node_modules", dep), join(dir, "node_modules", dep));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
