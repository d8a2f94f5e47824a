/**
 * The content hash of an environment version: one SHA-256 over its package files, computed the same
 * way by the client (before a push, after an install) and the server (on upload). The spec, with the
 * reasons for each rule, is docs/content-hash.md; change both together.
 */
import { createHash } from "node:crypto";

/** A file of a package: its relative POSIX path and its bytes. */
export interface PackageFile {
  path: string;
  data: Uint8Array;
}

/** Tag that opens every hashed stream, so a later spec can never collide with this one. */
export const CONTENT_HASH_SPEC = "vf-content-hash/1";

/**
 * The lowercase hex SHA-256 of `files`: the spec tag and a newline, then for each file in byte order
 * of its UTF-8 path: the path, NUL, its size in decimal, NUL, its bytes.
 *
 * @example contentHash([{ path: "package.json", data }]) // "3f1c…" (64 hex digits)
 */
export function contentHash(files: readonly PackageFile[]): string {
  const hash = createHash("sha256");
  hash.update(`${CONTENT_HASH_SPEC}\n`);
  for (const file of sortFiles(files)) {
    hash.update(Buffer.from(file.path, "utf8"));
    hash.update(`\0${file.data.length}\0`);
    hash.update(file.data);
  }
  return hash.digest("hex");
}

/** `files` in the spec's order: by the bytes of their UTF-8 paths, not by locale. */
export function sortFiles<T extends { path: string }>(files: readonly T[]): T[] {
  return [...files].sort((a, b) => Buffer.compare(Buffer.from(a.path, "utf8"), Buffer.from(b.path, "utf8")));
}

/** True for a full 64-digit lowercase hex content hash. */
export function isContentHash(text: string): boolean {
  return /^[0-9a-f]{64}$/.test(text);
}
