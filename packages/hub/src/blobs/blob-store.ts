/**
 * Where the Hub keeps package tarballs: a folder by default, an S3-compatible bucket at scale. Keys
 * are content-addressed (`tarballs/<sha256>.tgz`), so a put of an existing key is a harmless no-op.
 */

/** A file to store as a blob, streamed rather than read whole. */
export interface BlobFile {
  path: string;
  size: number;
  /** Hex SHA-256 of its bytes (S3 signs the payload by it). */
  sha256: string;
}

/** A store of immutable byte blobs by key. */
export interface BlobStore {
  /** Which implementation this is, for logs and the contract suite's names. */
  readonly kind: "folder" | "s3";
  /** Stores `data` under `key`, replacing nothing that differs (keys name their content). */
  put(key: string, data: Uint8Array): Promise<void>;
  /** Stores the bytes of `file` under `key` as `put` does, without holding them in memory. */
  putFile(key: string, file: BlobFile): Promise<void>;
  /** The bytes under `key`, or null when there are none. */
  get(key: string): Promise<Uint8Array | null>;
  /** Whether `key` holds bytes. */
  has(key: string): Promise<boolean>;
  /** Removes `key`; removing an absent key is not an error. */
  delete(key: string): Promise<void>;
}

/** Keys are `segment/segment...` of letters, digits, '.', '_' and '-': safe as paths and URLs. */
export function checkBlobKey(key: string): void {
  if (!/^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/.test(key)) {
    throw new Error(`blob key "${key}" is not allowed: use letters, digits, '.', '_', '-' and '/'`);
  }
}

/** The key of the tarball with this sha256. */
export function tarballKey(sha256: string): string {
  return `tarballs/${sha256}.tgz`;
}
