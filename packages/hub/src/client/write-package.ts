/**
 * Writes verified package files into a folder safely and atomically: into a fresh temporary sibling
 * first (so no existing symlink can redirect a write), each path checked to stay inside it, then
 * swapped into place with renames, so a reader sees the old package or the new one, never a mix.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { HubError } from "../hub-error.ts";
import type { PackageFile } from "../package/content-hash.ts";
import { unsafePathReason } from "../package/package-path.ts";

/** Replaces `dir` (created when absent) with exactly `files`. */
export function writePackage(dir: string, files: readonly PackageFile[]): void {
  const target = resolve(dir);
  const parent = dirname(target);
  mkdirSync(parent, { recursive: true });
  const temp = join(parent, `.${basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
  mkdirSync(temp);
  try {
    for (const file of files) {
      const reason = unsafePathReason(file.path);
      const path = resolve(temp, file.path);
      if (reason || !path.startsWith(temp + sep))
        throw new HubError(
          "invalid_package",
          `refusing to write "${file.path}": ${reason ?? "it leaves the folder"}`,
        );
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.data, { flag: "wx" });
    }
    const old = `${temp}.old`;
    let hadOld = true;
    try {
      renameSync(target, old);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      hadOld = false;
    }
    renameSync(temp, target);
    if (hadOld) rmSync(old, { recursive: true, force: true });
  } catch (error) {
    rmSync(temp, { recursive: true, force: true });
    throw error;
  }
}
