/**
 * A sandbox's folder on the host: made when a sandbox (a rollout's python REPL, an agent's runtime)
 * starts, removed when it ends, whatever the ending. Its name carries the host process's identity,
 * `<prefix>-<pid namespace>-<pid>-<start time>-XXXXXX`, so that the folders of a host that died
 * without cleaning up (SIGKILL, a crash) are found and removed by the next host.
 */
import { chownSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Options of `createHostFolder`. */
export interface HostFolderOptions {
  /** The start of the folder's name, e.g. "vf-python" or "vf-agent"; letters and dashes. */
  prefix: string;
  /** Folders made inside it. */
  subfolders: readonly string[];
  /** Where it is made; default the system's temporary folder. */
  tempDir?: string;
  /** When vf runs as root, the folder and its subfolders are handed to this user (the sandbox's). */
  sandboxUid: number;
}

/** This process's mark (see `hostMark`); empty where there is no /proc to read it from. */
let ownMark: string | undefined;

/**
 * Makes a fresh folder and its subfolders; returns its path. Synchronous on purpose: the folder is
 * in the caller's state before anything else can run, so a cleanup racing a cancellation always
 * finds it.
 */
export function createHostFolder(options: HostFolderOptions): string {
  ownMark ??= hostMark(process.pid) ?? "";
  const prefix = ownMark ? `${options.prefix}-${ownMark}-` : `${options.prefix}-`;
  const path = mkdtempSync(join(options.tempDir ?? tmpdir(), prefix));
  const dirs = [path, ...options.subfolders.map((name) => join(path, name))];
  for (const dir of dirs.slice(1)) mkdirSync(dir);
  if (process.getuid?.() === 0) {
    for (const dir of dirs) chownSync(dir, options.sandboxUid, options.sandboxUid);
  }
  return path;
}

/** Removes a folder and everything the sandbox left in it. */
export async function removeHostFolder(path: string): Promise<void> {
  await rm(path, { recursive: true, force: true, maxRetries: 3 });
}

/**
 * Removes the folders named `<prefix>-...` under `dir` whose host process has ended; resolves with
 * their paths. A folder of a host in another pid namespace (another container sharing the folder)
 * is left alone, since its host cannot be seen from here, and so is one this user may not remove
 * (another user's).
 */
export async function removeStaleFolders(dir: string, prefix: string): Promise<string[]> {
  const namespace = hostMark(process.pid)?.split("-")[0];
  const removed: string[] = [];
  const pattern = new RegExp(`^${prefix}-(\\d+)-(\\d+)-(\\d+)-[^-]+$`);
  for (const name of await readdir(dir)) {
    const match = pattern.exec(name);
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
export function hostMark(pid: number): string | undefined {
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
