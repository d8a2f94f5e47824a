/**
 * What the host reads in /proc about a running sandbox: the host's pid of the namespace's PID 1
 * (the worker, `unshare`'s one child) and how many threads it runs. Synchronous on purpose: these
 * are small kernel files read between a call's answer and the next request, where an await would
 * cost more than the read.
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync } from "node:fs";

/**
 * The pid of `unshare`'s child (the namespace's PID 1, the launcher and then the worker), or
 * undefined before unshare has forked it or after it has ended.
 */
export function namespaceInit(unsharePid: number): number | undefined {
  const children = readProc(`/proc/${unsharePid}/task/${unsharePid}/children`);
  if (children !== undefined) {
    const first = children.trim().split(" ")[0];
    return first ? Number(first) : undefined;
  }
  // Kernels built without CONFIG_PROC_CHILDREN: look for the process whose parent is unshare.
  for (const entry of readdirSync("/proc")) {
    if (/^\d+$/.test(entry) && statFields(Number(entry))?.[1] === String(unsharePid)) return Number(entry);
  }
  return undefined;
}

/**
 * The thread count of one process, read after every call. It keeps /proc/<pid>/stat open and
 * rereads it from the start: a few microseconds, where opening it each time costs several times
 * that. The descriptor stays bound to that process, even if its pid is reused once it has ended.
 */
export class ThreadCounter {
  private readonly buffer = Buffer.alloc(1024);

  private constructor(private fd: number | undefined) {}

  /** A counter for `pid`, or undefined when it has already ended. */
  static open(pid: number): ThreadCounter | undefined {
    try {
      return new ThreadCounter(openSync(`/proc/${pid}/stat`, "r"));
    } catch {
      return undefined;
    }
  }

  /** How many threads the process runs now, or undefined once it has ended. */
  count(): number | undefined {
    if (this.fd === undefined) return undefined;
    try {
      const size = readSync(this.fd, this.buffer, 0, this.buffer.length, 0);
      return Number(fieldsOf(this.buffer.toString("latin1", 0, size))[17]);
    } catch {
      return undefined; // the process has ended
    }
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** The state letter of a process (`R`, `S`, `Z` for a zombie, ...), or undefined once it is gone. */
export function processState(pid: number): string | undefined {
  return statFields(pid)?.[0];
}

/** The fields of /proc/<pid>/stat, or undefined once the process has ended. */
function statFields(pid: number): string[] | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  return stat === undefined ? undefined : fieldsOf(stat);
}

/** The fields of a stat line after the command name: state first, then the parent's pid... */
function fieldsOf(stat: string): string[] {
  // The command name is in parentheses and may itself hold spaces or parentheses.
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined; // the process has ended
  }
}
