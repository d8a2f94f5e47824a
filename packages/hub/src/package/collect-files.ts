/**
 * Collects the files of an environment package folder by the content-hash inclusion rules
 * (docs/content-hash.md): regular files only, no dot-files, no node_modules, no root outputs/, nothing
 * the root .gitignore ignores. A symlink or other special file is refused, never followed.
 */
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ignore from "ignore";
import { HubError } from "../hub-error.ts";
import type { PackageFile } from "./content-hash.ts";
import { isIncludedPath } from "./package-path.ts";
import { DEFAULT_PACKAGE_LIMITS, type PackageLimits } from "./package-tarball.ts";

/** The package files under `dir`, paths relative and POSIX-style, in the spec's order. */
export function collectPackageFiles(dir: string, limits: Partial<PackageLimits> = {}): PackageFile[] {
  const { maxFiles, maxUnpackedBytes } = { ...DEFAULT_PACKAGE_LIMITS, ...limits };
  const ignored = gitignoreOf(dir);
  const files: PackageFile[] = [];
  let total = 0;
  const walk = (relative: string): void => {
    for (const name of readdirSync(join(dir, relative)).sort()) {
      const path = relative ? `${relative}/${name}` : name;
      if (!isIncludedPath(path)) continue;
      const stat = lstatSync(join(dir, path));
      if (stat.isDirectory()) {
        if (!ignored.ignores(`${path}/`)) walk(path);
        continue;
      }
      if (ignored.ignores(path)) continue;
      if (stat.isSymbolicLink()) {
        throw new HubError(
          "invalid_package",
          `${path} is a symbolic link; packages hold only regular files: copy the target in, or list it in .gitignore`,
        );
      }
      if (!stat.isFile())
        throw new HubError(
          "invalid_package",
          `${path} is not a regular file: remove it or list it in .gitignore`,
        );
      total += stat.size;
      if (files.length >= maxFiles)
        throw new HubError(
          "payload_too_large",
          `${dir} has more than ${maxFiles} files: list the extra ones in .gitignore`,
        );
      if (total > maxUnpackedBytes) {
        throw new HubError(
          "payload_too_large",
          `${dir} holds over ${maxUnpackedBytes} bytes of files: list large ones in .gitignore`,
        );
      }
      files.push({ path, data: readFileSync(join(dir, path)) });
    }
  };
  walk("");
  return files;
}

function gitignoreOf(dir: string): ReturnType<typeof ignore> {
  const matcher = ignore();
  try {
    matcher.add(readFileSync(join(dir, ".gitignore"), "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  return matcher;
}
