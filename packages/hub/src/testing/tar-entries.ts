/**
 * Hand-made tar entries for tests that must build archives our writer refuses to make: links,
 * absolute paths, `..` segments. Each entry is a ustar header plus padded data.
 */
import { gzipSync } from "node:zlib";

/** One raw tar entry of type flag `type` ("0" file, "1" hardlink, "2" symlink, "5" folder). */
export function rawTarEntry(
  path: string,
  type: string,
  data: Uint8Array = new Uint8Array(),
  link = "",
): Uint8Array {
  const header = Buffer.alloc(512);
  header.write(path, 0, 100);
  header.write("0000644\0", 100);
  header.write(`${data.length.toString(8).padStart(11, "0")}\0`, 124);
  header.write("00000000000\0", 136);
  header.fill(0x20, 148, 156);
  header.write(type, 156);
  header.write(link, 157, 100);
  header.write("ustar\u000000", 257);
  let sum = 0;
  for (const b of header) sum += b;
  header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
  const padded = Buffer.alloc(Math.ceil(data.length / 512) * 512);
  padded.set(data);
  return Buffer.concat([header, padded]);
}

/** A gzipped archive of `entries` with the end-of-archive blocks. */
export function rawTgz(...entries: Uint8Array[]): Uint8Array {
  return gzipSync(Buffer.concat([...entries, Buffer.alloc(1024)]));
}
