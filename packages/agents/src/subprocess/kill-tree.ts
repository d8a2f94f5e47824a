/**
 * Ends a program and everything it started, including what it moved into process groups or
 * sessions of its own (the bash agent runs each command in a group of its own, so that a command's
 * timeout reaches the command's children; a CLI may daemonize a helper). Killing the program's
 * group alone leaves those running once the program is gone, and an orphan is reparented to init,
 * where nothing links it to the rollout any more. So the tree is read from /proc while the program
 * still holds it together: every process found is stopped (SIGSTOP, so it cannot fork past the
 * scan), the scan is repeated until it finds nothing new, and then all of them are killed.
 *
 * Linux only (/proc); elsewhere the program's own group is killed, as before.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Kills `rootPid`'s process group and every descendant of `rootPid`, wherever its group. */
export function killTree(rootPid: number): void {
  const found = new Set<number>([rootPid]);
  for (let scan = 0; scan < 8; scan++) {
    const before = found.size;
    for (const pid of descendants(found)) found.add(pid);
    for (const pid of found) signal(pid, "SIGSTOP");
    if (found.size === before && scan > 0) break;
  }
  signal(-rootPid, "SIGKILL");
  for (const pid of found) signal(pid, "SIGKILL");
}

/** Processes whose parent is in `parents`, transitively, from one read of /proc. */
function descendants(parents: ReadonlySet<number>): number[] {
  const childrenOf = new Map<number, number[]>();
  for (const [pid, ppid] of processParents()) {
    const siblings = childrenOf.get(ppid);
    if (siblings) siblings.push(pid);
    else childrenOf.set(ppid, [pid]);
  }
  const out: number[] = [];
  const queue = [...parents];
  for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
    for (const child of childrenOf.get(pid) ?? []) {
      if (parents.has(child) || out.includes(child)) continue;
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** Each process's parent, as /proc/<pid>/stat gives it; empty where there is no /proc. */
function processParents(): Array<[number, number]> {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const out: Array<[number, number]> = [];
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      // The command name (field 2) is in parentheses and may itself hold spaces or parentheses.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.push([pid, Number(fields[1])]);
    } catch {
      // Gone between the listing and the read.
    }
  }
  return out;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone, or (for a group) empty.
  }
}
