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
  const hash = new ContentHasher();
  for (const file of sortFiles(files)) {
    hash.startFile(file.path, file.data.length);
    hash.update(file.data);
  }
  return hash.digest();
}

/**
 * The content hash fed a file at a time, a file's bytes in as many pieces as suit, for packages too
 * large to hold (the Hub hashes an upload from disk). The caller gives the files in `sortFiles` order,
 * each's `size` bytes after its `startFile`.
 */
export class ContentHasher {
  private readonly hash = createHash("sha256").update(`${CONTENT_HASH_SPEC}\n`);

  /** Starts the next file: its relative path and its size in bytes. */
  startFile(path: string, size: number): void {
    this.hash.update(Buffer.from(path, "utf8"));
    this.hash.update(`\0${size}\0`);
  }

  /** Some of the current file's bytes. */
  update(bytes: Uint8Array): void {
    this.hash.update(bytes);
  }

  /** The lowercase hex content hash. */
  digest(): string {
    return this.hash.digest("hex");
  }
}

/** `files` in the spec's order: by the bytes of their UTF-8 paths, not by locale. */
export function sortFiles<T extends { path: string }>(files: readonly T[]): T[] {
  return [...files].sort((a, b) => Buffer.compare(Buffer.from(a.path, "utf8"), Buffer.from(b.path, "utf8")));
}

/** True for a full 64-digit lowercase hex content hash. */
export function isContentHash(text: string): boolean {
  return /^[0-9a-f]{64}$/.test(text);
}
