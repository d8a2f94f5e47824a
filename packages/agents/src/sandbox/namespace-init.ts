/**
 * What the host reads in /proc about a running sandbox: the host's pid of the namespace's PID 1
 * (the worker, `unshare`'s one child), how many threads it runs and how many children it has.
 * Synchronous on purpose: these are small kernel files read between a call's answer and the next
 * request, where an await would cost more than the read.
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
  return childrenOf(unsharePid)?.[0];
}

/**
 * What the host reads about the namespace's PID 1 (the worker) after every call: how many threads
 * it runs and how many children it has. It keeps /proc/<pid>/stat and
 * /proc/<pid>/task/<pid>/children open and rereads them from the start: a few microseconds, where
 * opening them each time costs several times that. The descriptors stay bound to that process,
 * even if its pid is reused once it has ended.
 */
export class InitProbe {
  private readonly buffer = Buffer.alloc(64 * 1024);

  private constructor(
    private readonly pid: number,
    private stat: number | undefined,
    /** Undefined on kernels built without CONFIG_PROC_CHILDREN. */
    private children: number | undefined,
  ) {}

  /** A probe of `pid`, or undefined when it has already ended. */
  static open(pid: number): InitProbe | undefined {
    let stat: number;
    try {
      stat = openSync(`/proc/${pid}/stat`, "r");
    } catch {
      return undefined;
    }
    let children: number | undefined;
    try {
      children = openSync(`/proc/${pid}/task/${pid}/children`, "r");
    } catch {
      children = undefined;
    }
    return new InitProbe(pid, stat, children);
  }

  /** How many threads the process runs now, or undefined once it has ended. */
  threadCount(): number | undefined {
    const stat = this.reread(this.stat);
    return stat === undefined ? undefined : Number(fieldsOf(stat)[17]);
  }

  /**
   * How many child processes (zombies included) its main thread has now: once its other threads
   * have ended, those are all of its children. Undefined once it has ended.
   */
  childCount(): number | undefined {
    if (this.children === undefined) return childrenOf(this.pid)?.length;
    return this.reread(this.children)?.split(" ").filter(Boolean).length;
  }

  close(): void {
    for (const fd of [this.stat, this.children]) if (fd !== undefined) closeSync(fd);
    this.stat = undefined;
    this.children = undefined;
  }

  private reread(fd: number | undefined): string | undefined {
    if (fd === undefined) return undefined;
    try {
      return this.buffer.toString("latin1", 0, readSync(fd, this.buffer, 0, this.buffer.length, 0));
    } catch {
      return undefined; // the process has ended
    }
  }
}

/** The pids whose parent is `pid`, by a scan of /proc; undefined once `pid` has ended. */
function childrenOf(pid: number): number[] | undefined {
  if (statFields(pid) === undefined) return undefined;
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry) && statFields(Number(entry))?.[1] === String(pid))
    .map(Number);
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
