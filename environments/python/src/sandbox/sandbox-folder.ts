/**
 * A rollout's temporary folder (a host folder of @vf-rl/agents/sandbox, named `vf-python-...`):
 * `work/` is what the code sees as /sandbox (read-write), `root/` the empty mount point of the
 * sandbox's private root. Made when the rollout starts, removed when it ends, whatever the ending;
 * the folders of a host that died without cleaning up are removed by the next sandbox that starts.
 */
import { join } from "node:path";
import { createHostFolder, removeHostFolder } from "@vf-rl/agents/sandbox";

/** The start of every python sandbox folder's name. */
export const FOLDER_PREFIX = "vf-python";

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
 * root, the folder is handed to `sandboxUid`, the user the sandbox runs as. Synchronous, so that a
 * cleanup racing a cancellation always finds it.
 */
export function createSandboxFolder(options: { tempDir?: string; sandboxUid: number }): SandboxFolder {
  const path = createHostFolder({ ...options, prefix: FOLDER_PREFIX, subfolders: ["work", "root"] });
  return { path, work: join(path, "work"), root: join(path, "root") };
}

/** Removes the folder and everything the code left in it. */
export async function removeSandboxFolder(folder: SandboxFolder): Promise<void> {
  await removeHostFolder(folder.path);
}
