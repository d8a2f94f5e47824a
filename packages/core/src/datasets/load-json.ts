/** JSON datasets: the whole file is one JSON value holding the rows. */
import { DatasetError } from "../errors.ts";
import { Dataset } from "./dataset.ts";
import { datasetText, readDatasetFile } from "./dataset-file.ts";

/**
 * Loads a `.json` file holding either an array of rows, or an object whose `rows` field is that
 * array (`{"rows": [...]}`); rows are as in `DatasetRow`.
 *
 * @example
 * const dataset = await loadJson("data/eval.json");
 */
export async function loadJson(path: string): Promise<Dataset> {
  const text = datasetText(await readDatasetFile(path));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const hint = looksLikeJsonLines(text)
      ? "it looks like JSON Lines (one object per line): rename it to .jsonl"
      : 'the file must hold an array of rows or {"rows": [...]}';
    throw new DatasetError(`${path} is not valid JSON (${(error as Error).message}): ${hint}`, path);
  }
  const rows = Array.isArray(value) ? value : (value as { rows?: unknown } | null)?.rows;
  if (!Array.isArray(rows)) {
    throw new DatasetError(
      `${path} holds ${describe(value)}, not rows: a JSON dataset is an array of rows or an object {"rows": [...]}`,
      path,
    );
  }
  return Dataset.fromRows(rows, { source: path, path });
}

function looksLikeJsonLines(text: string): boolean {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "");
  if (lines.length < 2) return false;
  try {
    JSON.parse(lines[0]!);
    JSON.parse(lines[1]!);
    return true;
  } catch {
    return false;
  }
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return 'an object without a "rows" array';
  return `a ${typeof value}`;
}
