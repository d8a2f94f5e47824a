/** Blobs as files in a folder (the default store): written to a temp file, then renamed into place. */
import { randomBytes } from "node:crypto";
import { copyFile, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type BlobStore, checkBlobKey } from "./blob-store.ts";

/** A blob store rooted at `root` (created on first write). */
export function folderBlobStore(root: string): BlobStore {
  const pathOf = (key: string) => {
    checkBlobKey(key);
    return join(root, key);
  };
  return {
    kind: "folder",
    async put(key, data) {
      await writeThenRename(pathOf(key), (temp) => writeFile(temp, data));
    },
    async putFile(key, file) {
      await writeThenRename(pathOf(key), (temp) => copyFile(file.path, temp));
    },
    async get(key) {
      try {
        return await readFile(pathOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async has(key) {
      try {
        return (await stat(pathOf(key))).isFile();
      } catch {
        return false;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}

// A rename is atomic: a reader sees the old file or the whole new one, never a half-written one.
async function writeThenRename(path: string, write: (temp: string) => Promise<void>): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await write(temp);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
