/** Parquet datasets (as Hugging Face and pandas write them), read with hyparquet. */
import { parquetReadObjects } from "hyparquet";
import { DatasetError } from "../errors.ts";
import { Dataset } from "./dataset.ts";
import { readDatasetFile } from "./dataset-file.ts";

/**
 * Loads a `.parquet` file of rows (see `DatasetRow`). Nested columns (a `prompt` list of message
 * structs, an `info` struct) arrive as arrays and objects; 64-bit integers become numbers, or
 * strings when too large for one. Compressed with Snappy or uncompressed; other codecs are refused.
 *
 * @example
 * const dataset = await loadParquet("data/test-00000-of-00001.parquet");
 */
export async function loadParquet(path: string): Promise<Dataset> {
  const bytes = await readDatasetFile(path);
  let rows: Record<string, unknown>[];
  try {
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    rows = await parquetReadObjects({ file });
  } catch (error) {
    throw new DatasetError(
      `${path} is not a readable Parquet file (${(error as Error).message}): check the file, or convert it to JSONL`,
      path,
    );
  }
  return Dataset.fromRows(rows.map(plainValue), { source: path, path });
}

/** Parquet values as JSON-friendly values: results are saved as JSON, which has no BigInt. */
function plainValue(value: unknown): unknown {
  if (typeof value === "bigint") {
    const small = value >= Number.MIN_SAFE_INTEGER && value <= Number.MAX_SAFE_INTEGER;
    return small ? Number(value) : value.toString();
  }
  if (Array.isArray(value)) return value.map(plainValue);
  if (typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, cell]) => [key, plainValue(cell)]));
  }
  return value;
}
