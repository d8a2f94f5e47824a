/**
 * For tests of the sandbox: a started sandbox in a fresh folder, and the processes of the sandboxes
 * under a folder, read from /proc. A sandbox's own processes (unshare, the worker) name its folder
 * in their command lines; the processes its code starts do not (they run their own commands), so
 * every descendant of those counts too.
 */
import { readdir, readFile, readlink } from "node:fs/promises";
import { PythonSandbox } from "./python-sandbox.ts";
import { createSandboxFolder, removeSandboxFolder, type SandboxFolder } from "./sandbox-folder.ts";
import { SandboxOptions, type SandboxOptionsInput } from "./sandbox-options.ts";

/** Runs `body` with a sandbox started under `tempDir` with `input`'s options, then stops it. */
export async function withSandbox(
  tempDir: string,
  input: SandboxOptionsInput,
  body: (sandbox: PythonSandbox, folder: SandboxFolder) => Promise<void>,
): Promise<void> {
  const options = SandboxOptions.parse({ tempDir, ...input });
  const folder = createSandboxFolder(options);
  const sandbox = await PythonSandbox.start(folder, options);
  try {
    await body(sandbox, folder);
  } finally {
    await sandbox.close();
    await removeSandboxFolder(folder);
  }
}

/** Pids of the live processes whose command line contains `marker`, and of all their descendants. */
export async function sandboxProcesses(marker: string): Promise<number[]> {
  const parents = new Map<number, number>();
  const found = new Set<number>();
  for (const entry of await readdir("/proc")) {
    const pid = Number(entry);
    if (!/^\d+$/.test(entry) || pid === process.pid) continue;
    try {
      const [cmdline, stat] = await Promise.all([
        readFile(`/proc/${pid}/cmdline`, "utf8"),
        readFile(`/proc/${pid}/stat`, "utf8"),
      ]);
      // The parent is the second field after the command name, which is in parentheses and may
      // itself hold spaces or parentheses.
      parents.set(pid, Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
      if (cmdline.includes(marker)) found.add(pid);
    } catch {
      // The process ended while we looked.
    }
  }
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (!found.has(pid) && found.has(parent)) {
        found.add(pid);
        grew = true;
      }
    }
  }
  return [...found].sort((a, b) => a - b);
}

/**
 * The host side of the running sandboxes under `marker`: their processes that are children of this
 * one (`unshare`, which setpriv became), outside the sandboxes' namespaces.
 */
export async function hostSides(marker: string): Promise<number[]> {
  const pids: number[] = [];
  for (const pid of await sandboxProcesses(marker)) {
    try {
      const stat = await readFile(`/proc/${pid}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === process.pid) pids.push(pid);
    } catch {
      // It ended while we looked.
    }
  }
  return pids;
}

/** The pid namespace of a process, as `pid:[inode]`; undefined once it has ended. */
export async function pidNamespace(pid: number): Promise<string | undefined> {
  try {
    return await readlink(`/proc/${pid}/ns/pid`);
  } catch {
    return undefined;
  }
}

/**
 * The host's pid of the worker (the namespace's PID 1) of the sandbox whose folder is `marker`: its
 * one process outside this process's pid namespace; undefined when it is not running.
 */
export async function sandboxWorker(marker: string): Promise<number | undefined> {
  const ours = await pidNamespace(process.pid);
  for (const pid of await sandboxProcesses(marker)) {
    const namespace = await pidNamespace(pid);
    if (namespace !== undefined && namespace !== ours) return pid;
  }
  return undefined;
}

/**
 * The pid namespace of the sandbox whose folder is `marker` (that of its worker, the one process
 * of it not in ours); undefined when it is not running.
 */
export async function sandboxNamespace(marker: string): Promise<string | undefined> {
  const worker = await sandboxWorker(marker);
  return worker === undefined ? undefined : pidNamespace(worker);
}

/** Pids of the processes (zombies included) that live in the pid namespace `namespace`. */
export async function namespaceProcesses(namespace: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (/^\d+$/.test(entry) && (await pidNamespace(Number(entry))) === namespace) pids.push(Number(entry));
  }
  return pids;
}
