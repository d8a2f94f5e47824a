/**
 * The safetensors format, written and read by hand: an 8-byte little-endian header length, a JSON
 * header mapping each tensor name to {dtype, shape, data_offsets} (plus optional string
 * "__metadata__"), then the raw little-endian data. The engine writes and reads F32 tensors; other
 * dtypes are reported with their name so the caller can say what is wrong.
 */
import { z } from "zod";
import { CheckpointError } from "../errors.ts";
import type { Floats } from "../floats.ts";

/** A tensor to write: name, shape and its float values (written as F32). */
export interface TensorToWrite {
  name: string;
  shape: readonly number[];
  data: Floats;
}

/** A tensor read from a file; `data` is null for dtypes the engine does not read (anything but F32). */
export interface ReadTensor {
  dtype: string;
  shape: number[];
  data: Float32Array | null;
}

const HeaderEntry = z.object({
  dtype: z.string(),
  shape: z.array(z.number().int().nonnegative()),
  data_offsets: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]),
});

const BYTES_PER_ELEMENT: Record<string, number> = {
  F64: 8,
  F32: 4,
  F16: 2,
  BF16: 2,
  I64: 8,
  I32: 4,
  I16: 2,
  I8: 1,
  U8: 1,
  BOOL: 1,
};

/** The bytes of a safetensors file holding `tensors` in order, as F32. */
export function encodeSafetensors(
  tensors: readonly TensorToWrite[],
  metadata: Record<string, string> = {},
): Uint8Array {
  const header: Record<string, unknown> = {};
  if (Object.keys(metadata).length > 0) header.__metadata__ = metadata;
  let offset = 0;
  for (const t of tensors) {
    const bytes = t.data.length * 4;
    header[t.name] = { dtype: "F32", shape: t.shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  let json = JSON.stringify(header);
  json += " ".repeat((8 - ((8 + json.length) % 8)) % 8); // pad so the data starts 8-byte aligned
  const headerBytes = new TextEncoder().encode(json);
  const out = new Uint8Array(8 + headerBytes.length + offset);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(headerBytes.length), true);
  out.set(headerBytes, 8);
  let p = 8 + headerBytes.length;
  for (const t of tensors) {
    for (let i = 0; i < t.data.length; i++, p += 4) view.setFloat32(p, t.data[i]!, true);
  }
  return out;
}

/** Parses safetensors bytes; `path` names the file in errors. Throws CheckpointError when malformed. */
export function decodeSafetensors(
  bytes: Uint8Array,
  path: string,
): { tensors: Map<string, ReadTensor>; metadata: Record<string, string> } {
  const fail = (why: string): never => {
    throw new CheckpointError(
      `${path} is not a valid safetensors file: ${why}: write it again with saveWeights`,
      path,
    );
  };
  if (bytes.length < 8) fail(`it has ${bytes.length} bytes, fewer than the 8-byte header length`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = Number(view.getBigUint64(0, true));
  if (headerLength > bytes.length - 8)
    fail(`its header length ${headerLength} runs past the end of the file`);
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)));
  } catch (error) {
    fail(`its header is not JSON (${(error as Error).message})`);
  }
  if (typeof header !== "object" || header === null || Array.isArray(header))
    fail("its header is not a JSON object");
  const dataStart = 8 + headerLength;
  const dataLength = bytes.length - dataStart;
  const tensors = new Map<string, ReadTensor>();
  let metadata: Record<string, string> = {};
  for (const [name, value] of Object.entries(header as Record<string, unknown>)) {
    if (name === "__metadata__") {
      const parsed = z.record(z.string(), z.string()).safeParse(value);
      if (!parsed.success) fail("__metadata__ must map strings to strings");
      metadata = parsed.data!;
      continue;
    }
    const entry = HeaderEntry.safeParse(value);
    if (!entry.success) fail(`the header entry of tensor "${name}" lacks dtype, shape or data_offsets`);
    const {
      dtype,
      shape,
      data_offsets: [begin, end],
    } = entry.data!;
    const size = BYTES_PER_ELEMENT[dtype];
    if (size === undefined) fail(`tensor "${name}" has unknown dtype ${dtype}`);
    const count = shape.reduce((a, b) => a * b, 1);
    if (end < begin || end > dataLength || end - begin !== count * size!) {
      fail(`tensor "${name}" has data_offsets [${begin}, ${end}] that do not hold ${count} ${dtype} values`);
    }
    let data: Float32Array | null = null;
    if (dtype === "F32") {
      data = new Float32Array(count);
      for (let i = 0; i < count; i++) data[i] = view.getFloat32(dataStart + begin + 4 * i, true);
    }
    tensors.set(name, { dtype, shape, data });
  }
  return { tensors, metadata };
}
