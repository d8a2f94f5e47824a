/**
 * For the local runtime's tests: a scratch folder the sandbox's user may enter, the host's
 * view of a sandbox's processes (by the user id it runs as, one per test file, so that what other
 * tests run never counts), and waiting for a condition.
 */
import { chmod, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Whether vf runs as root, where a sandbox runs as a user of its own and can be told apart. */
export const AS_ROOT = process.getuid?.() === 0;

/** A fresh temporary folder the sandbox's user may enter; `remove` deletes it. */
export async function scratchFolder(name: string): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), `vf-agents-${name}-`));
  await chmod(path, 0o755);
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** Pids of the live processes (zombies excluded) whose real user id is `uid`. */
export async function processesOf(uid: number): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = await readFile(`/proc/${entry}/status`, "utf8");
      const real = /^Uid:\s+(\d+)/m.exec(status)?.[1];
      const state = /^State:\s+(\S)/m.exec(status)?.[1];
      if (real === String(uid) && state !== "Z") pids.push(Number(entry));
    } catch {
      // It ended while we looked.
    }
  }
  return pids;
}

/** Waits until `condition` holds, checking every 50 ms, for at most `seconds`. */
export async function eventually(condition: () => Promise<boolean>, seconds = 20): Promise<boolean> {
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}
