/**
 * Reads the files of an environment package from a folder. `collectPackageFiles` takes a package's
 * source folder and collects what `npm pack` would pack there (npm-pack-list.ts), less what the Hub
 * never takes (package-path.ts: dot-files, node_modules, the root outputs/): `vf env push` sends
 * exactly these, and a report is pinned to their hash. `readUnpackedPackage` takes a folder a package
 * was unpacked into (installed or pulled) and reads every file it holds, to check it against the
 * version's hash. Both refuse a package over the size limits.
 */
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { HubError } from "../hub-error.ts";
import type { PackageFile } from "./content-hash.ts";
import { npmPackList } from "./npm-pack-list.ts";
import { isIncludedPath } from "./package-path.ts";
import { DEFAULT_PACKAGE_LIMITS, type PackageLimits } from "./package-tarball.ts";

/** The files `npm pack` would pack from the source folder `dir`, as the Hub takes them. */
export async function collectPackageFiles(
  dir: string,
  limits: Partial<PackageLimits> = {},
): Promise<PackageFile[]> {
  const paths = (await npmPackList(dir)).filter(isIncludedPath);
  return readFiles(dir, paths, limits, 'leave large ones out (package.json "files", or .npmignore)');
}

/**
 * Every file of the folder `dir` a package was unpacked into but its node_modules (its
 * own dependencies, when npm installed it). A symbolic link or other special file is refused, never
 * followed: no package unpacks to one.
 */
export function readUnpackedPackage(dir: string, limits: Partial<PackageLimits> = {}): PackageFile[] {
  const paths: string[] = [];
  const walk = (relative: string): void => {
    for (const name of readdirSync(join(dir, relative)).sort()) {
      const path = relative ? `${relative}/${name}` : name;
      if (!isIncludedPath(path)) continue;
      if (lstatSync(join(dir, path)).isDirectory()) walk(path);
      else paths.push(path);
    }
  };
  walk("");
  return readFiles(dir, paths, limits, "it is not a package the Hub served");
}

function readFiles(
  dir: string,
  paths: readonly string[],
  limits: Partial<PackageLimits>,
  hint: string,
): PackageFile[] {
  const { maxFiles, maxUnpackedBytes } = { ...DEFAULT_PACKAGE_LIMITS, ...limits };
  if (paths.length > maxFiles) {
    throw new HubError("payload_too_large", `${dir} has more than ${maxFiles} package files: ${hint}`);
  }
  let total = 0;
  return paths.map((path) => {
    const stat = lstatSync(join(dir, path));
    if (!stat.isFile()) {
      throw new HubError(
        "invalid_package",
        `${path} is ${stat.isSymbolicLink() ? "a symbolic link" : "not a regular file"}; packages hold only regular files: copy the target in, or remove it`,
      );
    }
    total += stat.size;
    if (total > maxUnpackedBytes) {
      throw new HubError(
        "payload_too_large",
        `${dir} holds over ${maxUnpackedBytes} bytes of package files: ${hint}`,
      );
    }
    return { path, data: readFileSync(join(dir, path)) };
  });
}
