/**
 * Writes that are on disk when they return: a file replaced so a reader sees the old content or
 * the new, never half of either, and text written or appended and flushed (results.jsonl's rows).
 */
import { randomBytes } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";

/**
 * Writes `text` to `path` through a temporary file in the same folder, flushed to disk, then renamed
 * over the target (rename is atomic within one file system).
 */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const temp = `${path}.${process.pid}.${randomBytes(3).toString("hex")}.tmp`;
  try {
    await writeSynced(temp, text, "w");
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** Writes (`"w"`) or appends (`"a"`) `text` to `path` in one write, synced to disk before it resolves. */
export async function writeSynced(path: string, text: string, flags: "w" | "a"): Promise<void> {
  const handle = await open(path, flags);
  try {
    await handle.writeFile(text, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
}
