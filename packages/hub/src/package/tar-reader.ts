/**
 * Reads a tar archive into its entries, keeping every entry's type so the caller can refuse what it
 * must (links, devices). It understands ustar, pax (`x`/`g`) and GNU long names (`L`/`K`), which is
 * what npm, node-tar and GNU tar write. `walkTar` reads only the headers, through a `TarSource` (an
 * archive in memory, or in a file read block by block), and says where each entry's data lies;
 * `readTar` returns the entries of an archive in memory with their bytes. Neither extracts anything.
 */

/** The kind of a tar entry, by its type flag. */
export type TarEntryType = "file" | "directory" | "symlink" | "hardlink" | "other";

/** One entry of an archive: its path as written, its kind and, for files, its bytes. */
export interface TarEntry {
  path: string;
  type: TarEntryType;
  /** Target of a link entry, as written. */
  linkTarget?: string;
  data: Uint8Array;
}

/** An entry's header: its path, kind, and where its bytes lie in the archive. */
export interface TarHeader {
  path: string;
  type: TarEntryType;
  /** Target of a link entry, as written. */
  linkTarget?: string;
  /** Byte offset of the entry's data in the archive. */
  offset: number;
  /** Bytes of data. */
  size: number;
}

/** An archive to walk: its length, and its bytes read a range at a time. */
export interface TarSource {
  size: number;
  read(offset: number, length: number): Buffer;
}

/** The archive is not a readable tar file. */
export class TarFormatError extends Error {}

const BLOCK = 512;

/** Every entry of `archive`, in order, with its bytes. Throws `TarFormatError` on a corrupt archive. */
export function readTar(archive: Uint8Array): TarEntry[] {
  const buffer = Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength);
  const source: TarSource = {
    size: buffer.length,
    read: (offset, length) => buffer.subarray(offset, offset + length),
  };
  return walkTar(source).map(({ offset, size, ...entry }) => ({
    ...entry,
    data: new Uint8Array(buffer.subarray(offset, offset + size)),
  }));
}

/**
 * The header of every entry of `source`, in order; only headers (and pax and long-name records) are
 * read. Throws `TarFormatError` on a corrupt archive.
 */
export function walkTar(source: TarSource): TarHeader[] {
  const entries: TarHeader[] = [];
  let offset = 0;
  let pending: { path?: string; linkTarget?: string } = {};
  let global: { path?: string; linkTarget?: string } = {};
  while (offset + BLOCK <= source.size) {
    const block = source.read(offset, BLOCK);
    if (block.every((byte) => byte === 0)) break;
    verifyChecksum(block, offset);
    const size = readSize(block, offset);
    const flag = String.fromCharCode(block[156]!);
    const dataStart = offset + BLOCK;
    if (dataStart + size > source.size) throw new TarFormatError(`entry at byte ${offset} runs past the end`);
    offset = dataStart + Math.ceil(size / BLOCK) * BLOCK;
    if (flag === "x" || flag === "g") {
      const fields = parsePax(source.read(dataStart, size));
      if (flag === "x") pending = { ...pending, ...fields };
      else global = { ...global, ...fields };
      continue;
    }
    if (flag === "L" || flag === "K") {
      const text = source.read(dataStart, size).toString("utf8").replace(/\0+$/, "");
      pending = flag === "L" ? { ...pending, path: text } : { ...pending, linkTarget: text };
      continue;
    }
    const path = pending.path ?? global.path ?? headerPath(block);
    const linkTarget = pending.linkTarget ?? global.linkTarget ?? cString(block, 157, 100);
    pending = {};
    const type = typeOf(flag);
    const entry: TarHeader = { path, type, offset: dataStart, size };
    if (type === "symlink" || type === "hardlink") entry.linkTarget = linkTarget;
    entries.push(entry);
  }
  return entries;
}

function typeOf(flag: string): TarEntryType {
  if (flag === "0" || flag === "\0" || flag === "7") return "file";
  if (flag === "5") return "directory";
  if (flag === "2") return "symlink";
  if (flag === "1") return "hardlink";
  return "other";
}

function headerPath(block: Buffer): string {
  const name = cString(block, 0, 100);
  const isUstar = block.toString("ascii", 257, 262) === "ustar";
  const prefix = isUstar ? cString(block, 345, 155) : "";
  return prefix ? `${prefix}/${name}` : name;
}

function cString(block: Buffer, offset: number, length: number): string {
  const field = block.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.toString("utf8", 0, end === -1 ? length : end);
}

function readSize(block: Buffer, at: number): number {
  if ((block[124]! & 0x80) !== 0) throw new TarFormatError(`entry at byte ${at} uses a base-256 size`);
  const text = cString(block, 124, 12).trim();
  const size = text === "" ? 0 : Number.parseInt(text, 8);
  if (!Number.isFinite(size) || size < 0) throw new TarFormatError(`entry at byte ${at} has a bad size`);
  return size;
}

function verifyChecksum(block: Buffer, at: number): void {
  const stored = Number.parseInt(cString(block, 148, 8).trim(), 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
  if (stored !== sum) throw new TarFormatError(`entry at byte ${at} has a bad checksum`);
}

function parsePax(data: Buffer): { path?: string; linkTarget?: string } {
  const fields: { path?: string; linkTarget?: string } = {};
  let offset = 0;
  while (offset < data.length) {
    const space = data.indexOf(0x20, offset);
    if (space === -1) break;
    const length = Number.parseInt(data.toString("ascii", offset, space), 10);
    if (!Number.isFinite(length) || length <= 0) throw new TarFormatError("bad pax record length");
    const record = data.toString("utf8", space + 1, offset + length - 1);
    const eq = record.indexOf("=");
    const key = record.slice(0, eq);
    const value = record.slice(eq + 1);
    if (key === "path") fields.path = value;
    if (key === "linkpath") fields.linkTarget = value;
    offset += length;
  }
  return fields;
}
