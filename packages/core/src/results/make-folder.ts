/**
 * Creates a folder and its missing parents, one level at a time. Node 20's `mkdir(recursive)`
 * spins forever on some paths (under /proc it retries a parent that can never be created), and
 * its errors name an inner path with a raw code; this stops at the first level that fails and
 * says why in words.
 */
import { constants } from "node:fs";
import { access, mkdir, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { OutputFolderError } from "../errors.ts";

const REASONS: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "not permitted",
  EROFS: "the file system is read-only",
  ENOENT: "that file system does not allow new folders there",
  ENOSPC: "the disk is full",
  ENOTDIR: "a part of the path is a file, not a folder",
};

/** Makes `dir` (and its parents) a writable folder, or throws `OutputFolderError`. */
export async function makeFolder(dir: string): Promise<void> {
  const target = resolve(dir);
  const missing: string[] = [];
  let existing = target;
  for (;;) {
    const kind = await kindOf(existing);
    if (kind === "folder") break;
    if (kind === "other") {
      throw new OutputFolderError(dir, `${existing} is a file, not a folder`);
    }
    missing.unshift(existing);
    const parent = dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  for (const level of missing) {
    try {
      await mkdir(level);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "";
      if (code === "EEXIST" && (await kindOf(level)) === "folder") continue;
      throw new OutputFolderError(dir, `cannot create ${level} (${REASONS[code] ?? code})`);
    }
  }
  try {
    await access(target, constants.W_OK);
  } catch {
    throw new OutputFolderError(dir, "it is not writable (permission denied)");
  }
}

async function kindOf(path: string): Promise<"folder" | "other" | "missing"> {
  try {
    return (await stat(path)).isDirectory() ? "folder" : "other";
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENOTDIR: a parent is a file; walking up finds which one.
    if (code === "ENOENT" || code === "ENOTDIR") return "missing";
    throw new OutputFolderError(path, REASONS[code ?? ""] ?? String(code));
  }
}
