/**
 * A pushed package tarball, received into a temporary folder as it arrives and checked from there,
 * so a push holds a few chunks in memory however large it is (up to `maxTarballBytes`): the body is
 * written to `package.tgz` while its SHA-256, SHA-512 and SHA-1 are computed and its size counted
 * against the cap; it is then gunzipped to `package.tar` (counted against `maxUnpackedBytes`), whose
 * headers are checked (see `packageEntries`) and whose files are content-hashed in the spec's order,
 * read piece by piece. Only package.json and the README are read whole.
 */
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, readSync } from "node:fs";
import { type FileHandle, mkdtemp, open, rm } from "node:fs/promises";
import { join } from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { HubError } from "../hub-error.ts";
import { ContentHasher, sortFiles } from "../package/content-hash.ts";
import {
  notGzip,
  type PackageEntry,
  type PackageLimits,
  packageEntries,
  TAR_OVERHEAD_BYTES,
  tarballTooLarge,
  unpackedTooLarge,
} from "../package/package-tarball.ts";

/** A received and checked tarball in its temporary folder; `dispose()` removes the folder. */
export interface StagedTarball {
  /** The .tgz as received. */
  path: string;
  size: number;
  /** Hex SHA-256 of the .tgz: its blob key, and the payload hash of an S3 upload. */
  sha256: string;
  /** Base64 SHA-512 of the .tgz (npm's `integrity`, after `sha512-`). */
  sha512: string;
  /** Hex SHA-1 of the .tgz (npm's `shasum`). */
  sha1: string;
  /** The package's files, paths relative to `package/`. */
  files: PackageEntry[];
  /** The content hash of the files (see content-hash.ts). */
  contentHash: string;
  /** The bytes of one of `files`. */
  readFile(file: PackageEntry): Promise<Buffer>;
  dispose(): Promise<void>;
}

/** Where to stage, and the limits to hold the package to. */
export interface StageTarballOptions {
  /** The folder the upload's temporary folder is made in. */
  tempDir: string;
  limits: PackageLimits;
}

/** Pieces a file is read and hashed in. */
const READ_CHUNK = 1024 * 1024;

/**
 * Receives `body` and checks it as a package; throws a `HubError` (`payload_too_large`,
 * `invalid_package`) naming what is wrong, leaving nothing behind.
 */
export async function stageTarball(
  body: ReadableStream<Uint8Array> | null,
  options: StageTarballOptions,
): Promise<StagedTarball> {
  const dir = await mkdtemp(join(options.tempDir, "vf-hub-upload-"));
  let tar: FileHandle | null = null;
  const dispose = async () => {
    await tar?.close().catch(() => {}); // already closed by an earlier dispose
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const path = join(dir, "package.tgz");
    const received = await receive(body, path, options.limits.maxTarballBytes);
    const tarPath = join(dir, "package.tar");
    await gunzipInto(path, tarPath, options.limits.maxUnpackedBytes);
    const handle = await open(tarPath, "r");
    tar = handle;
    const size = (await handle.stat()).size;
    // Headers are 512-byte blocks, read synchronously; file data is read asynchronously below.
    const files = packageEntries(
      { size, read: (offset, length) => readAt(handle, offset, length) },
      options.limits,
    );
    const hasher = new ContentHasher();
    const piece = Buffer.alloc(READ_CHUNK);
    for (const file of sortFiles(files)) {
      hasher.startFile(file.path, file.size);
      for (let done = 0; done < file.size; done += READ_CHUNK) {
        const part = piece.subarray(0, Math.min(READ_CHUNK, file.size - done));
        await readExactly(handle, part, file.offset + done, file.path);
        hasher.update(part);
      }
    }
    return {
      path,
      ...received,
      files,
      contentHash: hasher.digest(),
      readFile: (file) => readWhole(handle, file),
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** Writes the body to `path` as it arrives, hashing and counting; past `max` bytes it stops reading. */
async function receive(body: ReadableStream<Uint8Array> | null, path: string, max: number) {
  const sha256 = createHash("sha256");
  const sha512 = createHash("sha512");
  const sha1 = createHash("sha1");
  let size = 0;
  const file = await open(path, "w");
  try {
    const reader = body?.getReader();
    try {
      for (;;) {
        const next = await reader?.read();
        if (!next || next.done) break;
        size += next.value.length;
        if (size > max) {
          // Cancelling tells the server to stop handing us the rest.
          await reader?.cancel().catch(() => {});
          throw tarballTooLarge(max);
        }
        for (const hash of [sha256, sha512, sha1]) hash.update(next.value);
        await writeAll(file, next.value);
      }
    } finally {
      reader?.releaseLock();
    }
  } finally {
    await file.close();
  }
  return { size, sha256: sha256.digest("hex"), sha512: sha512.digest("base64"), sha1: sha1.digest("hex") };
}

async function gunzipInto(tgz: string, tar: string, maxUnpackedBytes: number): Promise<void> {
  // Headroom for tar headers and padding; the file-size limit itself is checked on the entries.
  const max = maxUnpackedBytes + TAR_OVERHEAD_BYTES;
  let total = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      done(total > max ? unpackedTooLarge(maxUnpackedBytes) : null, chunk);
    },
  });
  try {
    await pipeline(createReadStream(tgz), createGunzip(), counter, createWriteStream(tar));
  } catch (error) {
    if (error instanceof HubError) throw error;
    // zlib's errors (Z_DATA_ERROR, Z_BUF_ERROR for a cut-off stream): not a gzip file.
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === "string" && code.startsWith("Z_")) throw notGzip();
    throw error;
  }
}

async function writeAll(file: FileHandle, bytes: Uint8Array): Promise<void> {
  for (let written = 0; written < bytes.length; ) {
    written += (await file.write(bytes, written)).bytesWritten;
  }
}

function readAt(file: FileHandle, offset: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  const bytesRead = readSync(file.fd, buffer, 0, length, offset);
  return buffer.subarray(0, bytesRead);
}

async function readWhole(file: FileHandle, entry: PackageEntry): Promise<Buffer> {
  const buffer = Buffer.alloc(entry.size);
  await readExactly(file, buffer, entry.offset, entry.path);
  return buffer;
}

/** Fills `target` with the file's bytes from `position` on (reads may return less than asked). */
async function readExactly(file: FileHandle, target: Buffer, position: number, what: string): Promise<void> {
  for (let done = 0; done < target.length; ) {
    const { bytesRead } = await file.read(target, done, target.length - done, position + done);
    if (bytesRead === 0) throw new Error(`the staged archive ended before the end of ${what}`);
    done += bytesRead;
  }
}
