/**
 * One writer per run folder: a lock file (`vf.lock`) holding the owner's pid, host, process start
 * time and a random token. It is created whole and atomically (written to a temporary file, then
 * hard-linked to its name, which fails when the name exists), so a reader never sees half a lock.
 * A lock whose process is gone (no such pid on this host, or the pid now belongs to a process that
 * started later) is stale and taken over, with a note. A lock file that cannot be read or is not
 * one vf wrote is never removed: taking the lock then fails with `UnreadableLockError`, saying what
 * to do. Readers ask `lockOwner` whether a live process still owns a run.
 *
 * Not a guard against two takeovers racing for the same stale lock *and* one of them dying in the
 * middle: then the second takeover guard may itself be stale for a moment. Everything else (two
 * writers starting together, a writer killed with SIGKILL, a pid reused) is handled.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { link, readFile, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { RunLockedError, UserError } from "../errors.ts";

/** The lock file's name inside a run folder. */
export const LOCK_FILE = "vf.lock";

/** What a lock file holds. */
export const LockInfo = z.object({
  pid: z.number().int(),
  host: z.string(),
  /** The owner's process start time (Linux: clock ticks since boot), to tell a reused pid; null elsewhere. */
  pid_start: z.number().nullable(),
  /** Random, so an owner removes only its own lock. */
  token: z.string(),
  /** When the lock was taken, ISO 8601. */
  since: z.string(),
});
export type LockInfo = z.infer<typeof LockInfo>;

/**
 * A run folder's lock file cannot be read, or does not hold a lock vf wrote (vf writes them whole,
 * so this is another program's file, or one a power cut left empty): it is left alone.
 */
export class UnreadableLockError extends UserError {
  constructor(
    readonly path: string,
    /** What is wrong with it, in words. */
    readonly reason: string,
  ) {
    super(
      `${path} is not a lock vf can read (${reason}): if no vf process is writing this run, delete that file and try again`,
    );
  }
}

/** Whether a lock's owner is alive, as far as this machine can tell. */
export type OwnerState = "alive" | "dead" | "unknown";

/** A held lock; `release` removes it (only if it is still ours). */
export interface RunLock {
  readonly path: string;
  readonly info: LockInfo;
  /** The stale lock this one replaced, if any (its owner had died). */
  readonly tookOver: LockInfo | null;
  release(): Promise<void>;
}

/**
 * Takes the lock of `dir` (which must exist), or throws `RunLockedError` naming the live owner
 * (`UnreadableLockError` when the lock file there is not one vf can read).
 *
 * @example
 * const lock = await acquireRunLock(dir);
 * try { ... } finally { await lock.release(); }
 */
export async function acquireRunLock(dir: string): Promise<RunLock> {
  const path = join(dir, LOCK_FILE);
  const info: LockInfo = {
    pid: process.pid,
    host: hostname(),
    pid_start: processStart(process.pid),
    token: randomBytes(8).toString("hex"),
    since: new Date().toISOString(),
  };
  let tookOver: LockInfo | null = null;
  // Each pass either takes the lock, throws, or removes one stale lock; a few passes always suffice.
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await createExclusive(path, info)) {
      return { path, info, tookOver, release: () => releaseLock(path, info.token) };
    }
    const holder = await readLock(path);
    if (holder.type === "missing") continue; // released between our attempt and the read
    if (holder.type === "unusable") throw new UnreadableLockError(path, holder.reason);
    const owner = holder.info;
    if (ownerState(owner) !== "dead") throw new RunLockedError(dir, owner.pid, owner.host, owner.since);
    await removeIfUnchanged(path, owner, info);
    tookOver = owner;
  }
  const holder = await readLock(path);
  if (holder.type === "lock") {
    throw new RunLockedError(dir, holder.info.pid, holder.info.host, holder.info.since);
  }
  throw new UnreadableLockError(path, "it kept changing while vf tried to take it over");
}

/** The lock of a run folder and whether its owner lives, or null when no lock is there. */
export async function lockOwner(dir: string): Promise<{ info: LockInfo; state: OwnerState } | null> {
  const holder = await readLock(join(dir, LOCK_FILE));
  if (holder.type !== "lock") return null;
  return { info: holder.info, state: ownerState(holder.info) };
}

/** Whether the owner of a lock is alive: only a process on this host can be checked. */
export function ownerState(lock: LockInfo): OwnerState {
  if (lock.host !== hostname()) return "unknown";
  try {
    process.kill(lock.pid, 0);
  } catch (error) {
    // EPERM: the pid exists but belongs to someone else, so it is alive.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return "dead";
  }
  if (lock.pid_start !== null) {
    const start = processStart(lock.pid);
    if (start !== null && start !== lock.pid_start) return "dead"; // the pid was reused
  }
  return "alive";
}

async function createExclusive(path: string, info: LockInfo): Promise<boolean> {
  const temp = `${path}.${info.token}.tmp`;
  await writeFile(temp, `${JSON.stringify(info)}\n`, "utf8");
  try {
    await link(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await rm(temp, { force: true });
  }
}

/** What is at a lock's path: a lock, nothing, or a file that is not a usable lock (and why). */
type LockFile = { type: "lock"; info: LockInfo } | { type: "missing" } | { type: "unusable"; reason: string };

async function readLock(path: string): Promise<LockFile> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code === "ENOENT") return { type: "missing" };
    return { type: "unusable", reason: `it cannot be read: ${code ?? message}` };
  }
  const unusable = (reason: string): LockFile => ({ type: "unusable", reason });
  if (text.trim() === "") return unusable("it is empty");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return unusable("it is not JSON");
  }
  const parsed = LockInfo.safeParse(value);
  return parsed.success ? { type: "lock", info: parsed.data } : unusable("it has no pid, host and token");
}

/**
 * Removes the lock at `path` if it is still the one we judged stale (`expected`). Two processes may
 * judge the same lock stale at once, so the removal runs under a second, short-lived guard file:
 * without it, the slower one could remove the lock the faster one has just taken.
 */
async function removeIfUnchanged(path: string, expected: LockInfo, self: LockInfo): Promise<void> {
  const guard = `${path}.takeover`;
  if (!(await createExclusive(guard, self))) {
    const other = await readLock(guard);
    if (other.type === "lock" && ownerState(other.info) === "dead") await rm(guard, { force: true });
    return; // someone else is taking over; the caller tries again
  }
  try {
    const current = await readLock(path);
    if (current.type === "lock" && current.info.token === expected.token) await rm(path, { force: true });
  } finally {
    await rm(guard, { force: true });
  }
}

async function releaseLock(path: string, token: string): Promise<void> {
  const current = await readLock(path);
  if (current.type === "lock" && current.info.token === token) await rm(path, { force: true });
}

// Field 22 of /proc/<pid>/stat (after the parenthesised command name, which may hold spaces).
function processStart(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const start = Number(fields[19]);
    return Number.isFinite(start) ? start : null;
  } catch {
    return null;
  }
}
