/**
 * One process at a time on an embedded database: PGlite has no server to arbitrate, and two processes
 * writing one data folder would corrupt it. The lock is a file holding the owner's pid, created
 * exclusively; a lock left by a process that no longer runs is taken over.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HubError } from "../hub-error.ts";

/** The data folder of an embedded database is held by another running process (a Hub). */
export class HubDataInUseError extends HubError {
  constructor(
    /** The data folder. */
    readonly dataDir: string,
    /** The process that holds it. */
    readonly pid: number,
  ) {
    super("conflict", `the Hub data in ${dataDir} is in use by process ${pid}: stop that Hub first`);
  }
}

/** Takes the lock of `dataDir`; returns the function that releases it. */
export function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, "hub.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, String(process.pid), { flag: "wx" });
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number(readFileSync(path, "utf8"));
      if (isRunning(owner) && owner !== process.pid) {
        throw new HubDataInUseError(dataDir, owner);
      }
      if (owner === process.pid) {
        throw new HubError(
          "conflict",
          `the Hub data in ${dataDir} is already open in this process: close the other Hub first`,
        );
      }
      rmSync(path, { force: true });
    }
  }
  throw new HubError("conflict", `could not lock ${path}: remove it if no Hub is running`);
}

function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
