/** Loading a dataset file by its extension. */
import { extname } from "node:path";
import { DatasetError } from "../errors.ts";
import type { Dataset } from "./dataset.ts";
import { loadJson } from "./load-json.ts";
import { loadJsonl } from "./load-jsonl.ts";
import { loadParquet } from "./load-parquet.ts";

const LOADERS: Record<string, (path: string) => Promise<Dataset>> = {
  ".jsonl": loadJsonl,
  ".ndjson": loadJsonl,
  ".json": loadJson,
  ".parquet": loadParquet,
};

/**
 * Loads a dataset from a `.jsonl` (or `.ndjson`), `.json` or `.parquet` file.
 *
 * @example
 * const dataset = await loadDataset(new URL("../data/train.jsonl", import.meta.url).pathname);
 */
export function loadDataset(path: string): Promise<Dataset> {
  const extension = extname(path).toLowerCase();
  const loader = LOADERS[extension];
  if (!loader) {
    const what = extension ? `"${extension}" files` : "files without an extension";
    return Promise.reject(
      new DatasetError(
        `cannot load ${path}: ${what} are not datasets vf reads: use .jsonl, .json or .parquet`,
        path,
      ),
    );
  }
  return loader(path);
}
