/** Reading a dataset file, with one clear error line when it cannot be read. */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { DatasetError } from "../errors.ts";

/** The bytes of a dataset file; a `DatasetError` naming the path when it is missing or unreadable. */
export async function readDatasetFile(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT"
        ? `dataset file not found: ${path} (resolved to ${resolve(path)}): check the path`
        : code === "EISDIR"
          ? `dataset path is a folder, not a file: ${path}: point at a .jsonl, .json or .parquet file inside it`
          : code === "EACCES" || code === "EPERM"
            ? `cannot read dataset file ${path}: permission denied: check the file's permissions`
            : `cannot read dataset file ${path}: ${(error as Error).message}`;
    throw new DatasetError(reason, path);
  }
}

/** A file's bytes as text, without a leading byte-order mark. */
export function datasetText(bytes: Buffer): string {
  return bytes.toString("utf8").replace(/^\uFEFF/, "");
}
