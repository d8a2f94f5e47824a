/**
 * msgpack on the env-server wire, as verifiers packs it (Python's msgpack with `use_bin_type`):
 * strings travel as msgpack str, bytes as bin, undefined fields are left out rather than sent as nil.
 */
import { decode, encode } from "@msgpack/msgpack";

/** Packs a payload or a reply. */
export function pack(value: unknown): Uint8Array {
  return encode(value, { ignoreUndefined: true });
}

/** Unpacks a payload; throws on bytes that are not one whole msgpack value. */
export function unpack(bytes: Uint8Array): unknown {
  return decode(bytes);
}
