/**
 * For tests: the processes whose command line mentions `marker` (a sandbox's folder or its parent
 * appears in the launcher's arguments), read from /proc.
 */
import { readdir, readFile } from "node:fs/promises";

/** Pids of the live processes whose command line contains `marker`. */
export async function sandboxProcesses(marker: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = await readFile(`/proc/${entry}/cmdline`, "utf8");
      if (cmdline.includes(marker)) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}
