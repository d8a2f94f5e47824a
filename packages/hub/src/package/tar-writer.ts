/**
 * Writes a plain ustar archive from a list of files, deterministically: fixed modes, owner and
 * mtime, so the same files always give the same bytes (and so the same sha256 and npm integrity).
 * Paths longer than ustar's name field go into a pax header.
 */

/** One regular file to archive; `path` is relative, POSIX-style. */
export interface TarFile {
  path: string;
  data: Uint8Array;
}

const BLOCK = 512;
// npm pack writes this mtime (1985-10-26T08:15:00Z) for reproducible tarballs; so do we.
const FIXED_MTIME = 499162500;

/** The tar archive (uncompressed) of `files`, in the order given. */
export function writeTar(files: readonly TarFile[]): Uint8Array {
  const chunks: Uint8Array[] = [];
  for (const file of files) {
    const name = Buffer.from(file.path, "utf8");
    if (name.length > 100) {
      const pax = paxRecord("path", file.path);
      chunks.push(header({ name: "PaxHeader", size: pax.length, type: "x" }), pad(pax));
      chunks.push(header({ name: file.path.slice(0, 99), size: file.data.length, type: "0" }));
    } else {
      chunks.push(header({ name: file.path, size: file.data.length, type: "0" }));
    }
    chunks.push(pad(file.data));
  }
  chunks.push(new Uint8Array(BLOCK * 2));
  return Buffer.concat(chunks);
}

function header(entry: { name: string; size: number; type: "0" | "x" }): Uint8Array {
  const block = Buffer.alloc(BLOCK);
  block.write(entry.name, 0, 100, "utf8");
  writeOctal(block, 100, 8, 0o644);
  writeOctal(block, 108, 8, 0);
  writeOctal(block, 116, 8, 0);
  writeOctal(block, 124, 12, entry.size);
  writeOctal(block, 136, 12, FIXED_MTIME);
  block.fill(0x20, 148, 156);
  block.write(entry.type, 156, 1, "ascii");
  block.write("ustar\u000000", 257, 8, "ascii");
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, "0")}\u0000 `, 148, 8, "ascii");
  return block;
}

function writeOctal(block: Buffer, offset: number, width: number, value: number): void {
  block.write(`${value.toString(8).padStart(width - 1, "0")}\u0000`, offset, width, "ascii");
}

function paxRecord(key: string, value: string): Uint8Array {
  const body = ` ${key}=${value}\n`;
  // The record's length prefix counts its own digits.
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length++;
  return Buffer.from(`${length}${body}`, "utf8");
}

function pad(data: Uint8Array): Uint8Array {
  const rest = data.length % BLOCK;
  return rest === 0 ? data : Buffer.concat([data, new Uint8Array(BLOCK - rest)]);
}
