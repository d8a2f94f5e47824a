/** Replacing a file so a reader sees the old content or the new, never half of either. */
import { randomBytes } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";

/**
 * Writes `text` to `path` through a temporary file in the same folder, flushed to disk, then renamed
 * over the target (rename is atomic within one file system).
 */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const temp = `${path}.${process.pid}.${randomBytes(3).toString("hex")}.tmp`;
  try {
    const handle = await open(temp, "w");
    try {
      await handle.writeFile(text, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
