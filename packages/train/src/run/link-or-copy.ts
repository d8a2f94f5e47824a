/** Puts a file at a second path: a hard link where the file system allows, a copy otherwise. */
import { copyFile, link } from "node:fs/promises";

/** Links `from` at `to`, or copies it (another file system, or one without hard links). */
export async function linkOrCopy(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch {
    await copyFile(from, to);
  }
}
