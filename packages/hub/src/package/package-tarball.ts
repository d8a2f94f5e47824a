/**
 * Environment packages as npm-style .tgz files (every path under `package/`), so the same tarball
 * serves `vf env install` and the npm registry protocol. Reading validates everything before any byte
 * is used: size limits (compressed and unpacked), file count, entry types (links and devices are
 * refused), unsafe paths (absolute, `..`), and the content-hash inclusion rules.
 */
import { gunzipSync, gzipSync } from "node:zlib";
import { HubError } from "../hub-error.ts";
import { type PackageFile, sortFiles } from "./content-hash.ts";
import { isIncludedPath, unsafePathReason } from "./package-path.ts";
import { TarFormatError, type TarHeader, type TarSource, walkTar } from "./tar-reader.ts";
import { writeTar } from "./tar-writer.ts";

/** Size limits of a package; the server and the client use the same defaults. */
export interface PackageLimits {
  /** Bytes of the .tgz itself; default 20 MiB. */
  maxTarballBytes: number;
  /** Bytes of all files once unpacked; default 50 MiB. */
  maxUnpackedBytes: number;
  /** Number of files; default 5,000. */
  maxFiles: number;
}

/** Default limits: 20 MiB packed, 50 MiB unpacked, 5,000 files. */
export const DEFAULT_PACKAGE_LIMITS: PackageLimits = {
  maxTarballBytes: 20 * 1024 * 1024,
  maxUnpackedBytes: 50 * 1024 * 1024,
  maxFiles: 5000,
};

const PREFIX = "package/";

/** The .tgz of `files` (sorted by the spec's order, under `package/`), byte-for-byte reproducible. */
export function packTarball(files: readonly PackageFile[]): Uint8Array {
  const entries = sortFiles(files).map((f) => ({ path: PREFIX + f.path, data: f.data }));
  return gzipSync(writeTar(entries), { level: 9 });
}

/**
 * The files of a package tarball, paths relative to `package/`, after validation. Throws a
 * `HubError` (`payload_too_large` or `invalid_package`) naming the offending entry.
 */
export function unpackTarball(tgz: Uint8Array, limits: Partial<PackageLimits> = {}): PackageFile[] {
  const { maxTarballBytes, maxUnpackedBytes } = { ...DEFAULT_PACKAGE_LIMITS, ...limits };
  if (tgz.length > maxTarballBytes) throw tarballTooLarge(maxTarballBytes, tgz.length);
  const archive = Buffer.from(gunzip(tgz, maxUnpackedBytes));
  const source = { size: archive.length, read: (at: number, n: number) => archive.subarray(at, at + n) };
  return packageEntries(source, limits).map((entry) => ({
    path: entry.path,
    data: new Uint8Array(archive.subarray(entry.offset, entry.offset + entry.size)),
  }));
}

/** A file of a package inside its tar archive: its path relative to `package/`, and where its bytes lie. */
export interface PackageEntry {
  path: string;
  offset: number;
  size: number;
}

/**
 * The files of the (uncompressed) package archive `source`, after validating every entry as
 * `unpackTarball` does; only the headers are read. Throws a `HubError` naming the offending entry.
 */
export function packageEntries(source: TarSource, limits: Partial<PackageLimits> = {}): PackageEntry[] {
  const { maxUnpackedBytes, maxFiles } = { ...DEFAULT_PACKAGE_LIMITS, ...limits };
  let headers: TarHeader[];
  try {
    headers = walkTar(source);
  } catch (error) {
    if (error instanceof TarFormatError) throw invalid(`it is not a valid tar archive (${error.message})`);
    throw error;
  }
  const files: PackageEntry[] = [];
  const seen = new Set<string>();
  let total = 0;
  for (const entry of headers) {
    const reason = unsafePathReason(entry.path);
    if (reason) throw invalid(`entry "${entry.path}" has ${reason}`);
    if (entry.type === "symlink" || entry.type === "hardlink") {
      throw invalid(`entry "${entry.path}" is a ${entry.type}; packages may hold only regular files`);
    }
    if (entry.type === "other") throw invalid(`entry "${entry.path}" is not a regular file or folder`);
    if (!entry.path.startsWith(PREFIX)) throw invalid(`entry "${entry.path}" is not under package/`);
    if (entry.type === "directory") continue;
    const path = entry.path.slice(PREFIX.length);
    if (!isIncludedPath(path)) {
      throw invalid(
        `entry "${entry.path}" is excluded by the content-hash rules (dot-files, node_modules, outputs)`,
      );
    }
    if (seen.has(path)) throw invalid(`entry "${entry.path}" appears twice`);
    seen.add(path);
    total += entry.size;
    if (files.length + 1 > maxFiles) {
      throw new HubError("payload_too_large", `the package has more than ${maxFiles} files: remove some`);
    }
    files.push({ path, offset: entry.offset, size: entry.size });
  }
  if (total > maxUnpackedBytes) throw unpackedTooLarge(maxUnpackedBytes);
  if (!seen.has("package.json")) throw invalid("it has no package/package.json");
  return files;
}

/** Bytes a package's tar archive may take beyond its files: headers and padding. */
export const TAR_OVERHEAD_BYTES = 4 * 1024 * 1024;

/** The refusal of a tarball over `maxTarballBytes` (of `size` bytes, when known: a stream is cut at the cap). */
export function tarballTooLarge(maxTarballBytes: number, size?: number): HubError {
  const is = size === undefined ? "is over" : `is ${size} bytes, over`;
  return new HubError(
    "payload_too_large",
    `the package ${is} the limit of ${maxTarballBytes} bytes: remove large files or list them in .gitignore`,
    { max_bytes: maxTarballBytes },
  );
}

/** The refusal of a package that unpacks to over `maxUnpackedBytes`. */
export function unpackedTooLarge(maxUnpackedBytes: number): HubError {
  return new HubError(
    "payload_too_large",
    `the package unpacks to over ${maxUnpackedBytes} bytes: make it smaller`,
  );
}

/** The refusal of a tarball that is not gzip-compressed (or whose gzip stream is corrupt). */
export function notGzip(): HubError {
  return invalid("it is not gzip-compressed (expected an npm-style .tgz)");
}

function gunzip(tgz: Uint8Array, maxUnpackedBytes: number): Uint8Array {
  try {
    // Headroom for tar headers and padding; the real file-size limit is checked on the entries.
    return gunzipSync(tgz, { maxOutputLength: maxUnpackedBytes + TAR_OVERHEAD_BYTES });
  } catch (error) {
    if (error instanceof RangeError) throw unpackedTooLarge(maxUnpackedBytes);
    throw notGzip();
  }
}

function invalid(why: string): HubError {
  return new HubError("invalid_package", `the package tarball was refused: ${why}`);
}
