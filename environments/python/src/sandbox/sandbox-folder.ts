/**
 * A rollout's temporary folder: `work/` is what the code sees as /sandbox (read-write), `root/` the
 * empty mount point of the sandbox's private root. Made when the rollout starts, removed when it
 * ends, whatever the ending. Its name carries the host process's identity, so that the folders of a
 * host that died without cleaning up (SIGKILL, a crash) are found and removed by the next host.
 */
import { chownSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
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

/** This process's mark (see `hostMark`); empty where there is no /proc to read it from. */
let ownMark: string | undefined;

/**
 * Makes a fresh folder under `tempDir` (default: the system's temporary folder). When vf runs as
 * root, the folder is handed to `sandboxUid`, the user the sandbox runs as. Synchronous on purpose:
 * the folder is in the rollout's state before anything else can run, so a cleanup racing a
 * cancellation always finds it.
 */
export function createSandboxFolder(options: { tempDir?: string; sandboxUid: number }): SandboxFolder {
  ownMark ??= hostMark(process.pid) ?? "";
  const prefix = ownMark ? `vf-python-${ownMark}-` : "vf-python-";
  const path = mkdtempSync(join(options.tempDir ?? tmpdir(), prefix));
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

/**
 * Removes the folders under `dir` whose host process has ended; resolves with their paths. A folder
 * of a host in another pid namespace (another container sharing the folder) is left alone, since
 * its host cannot be seen from here, and so is one this user may not remove (another user's).
 */
export async function removeStaleFolders(dir: string): Promise<string[]> {
  const namespace = hostMark(process.pid)?.split("-")[0];
  const removed: string[] = [];
  for (const name of await readdir(dir)) {
    const match = /^vf-python-(\d+)-(\d+)-(\d+)-[^-]+$/.exec(name);
    if (!match || namespace === undefined || match[1] !== namespace) continue;
    if (hostMark(Number(match[2])) === `${match[1]}-${match[2]}-${match[3]}`) continue;
    const path = join(dir, name);
    try {
      await rm(path, { recursive: true, force: true, maxRetries: 3 });
      removed.push(path);
    } catch {
      // Not ours to remove: its owner's next run will.
    }
  }
  return removed;
}

/**
 * `<pid namespace>-<pid>-<start time>` of a live process (the start time in clock ticks after boot,
 * so a reused pid has another mark), or undefined once it has ended.
 */
function hostMark(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const startTime = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    return `${pidNamespaceId()}-${pid}-${startTime}`;
  } catch {
    return undefined;
  }
}

/** The inode number of this process's pid namespace. */
function pidNamespaceId(): string {
  const link = readlinkSync("/proc/self/ns/pid");
  const inode = /\[(\d+)\]/.exec(link)?.[1];
  if (!inode) throw new Error(`unexpected pid namespace link ${link}`);
  return inode;
}
