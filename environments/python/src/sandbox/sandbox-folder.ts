/**
 * A rollout's temporary folder: `work/` is what the code sees as /sandbox (read-write), `root/` the
 * empty mount point of the sandbox's private root. Made when the rollout starts, removed when it
 * ends, whatever the ending.
 */
import { chownSync, mkdirSync, mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The folder of one rollout's sandbox. */
export interface SandboxFolder {
  /** The folder itself (`vf-python-XXXXXX`). */
  path: string;
  /** Shown to the code as /sandbox. */
  work: string;
  /** Mount point of the sandbox's root. */
  root: string;
}

/**
 * Makes a fresh folder under `tempDir` (default: the system's temporary folder). When vf runs as
 * root, the folder is handed to `sandboxUid`, the user the sandbox runs as. Synchronous on purpose:
 * the folder is in the rollout's state before anything else can run, so a cleanup racing a
 * cancellation always finds it.
 */
export function createSandboxFolder(options: { tempDir?: string; sandboxUid: number }): SandboxFolder {
  const path = mkdtempSync(join(options.tempDir ?? tmpdir(), "vf-python-"));
  const folder = { path, work: join(path, "work"), root: join(path, "root") };
  mkdirSync(folder.work);
  mkdirSync(folder.root);
  if (process.getuid?.() === 0) {
    for (const dir of [folder.path, folder.work, folder.root]) {
      chownSync(dir, options.sandboxUid, options.sandboxUid);
    }
  }
  return folder;
}

/** Removes the folder and everything the code left in it. */
export async function removeSandboxFolder(folder: SandboxFolder): Promise<void> {
  await rm(folder.path, { recursive: true, force: true, maxRetries: 3 });
}
