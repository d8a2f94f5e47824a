/** JSON Lines datasets: one JSON object per line; blank lines are skipped. */
import { DatasetError } from "../errors.ts";
import { Dataset } from "./dataset.ts";
import { datasetText, readDatasetFile } from "./dataset-file.ts";

/**
 * Loads a `.jsonl` file of rows (see `DatasetRow`). A line that is not a JSON object is a
 * `DatasetError` naming its line number.
 *
 * @example
 * const dataset = await loadJsonl("data/train.jsonl");
 */
export async function loadJsonl(path: string): Promise<Dataset> {
  const rows: unknown[] = [];
  const lines: number[] = [];
  datasetText(await readDatasetFile(path))
    .split(/\r?\n/)
    .forEach((text, index) => {
      if (text.trim() === "") return;
      const line = index + 1;
      let row: unknown;
      try {
        row = JSON.parse(text);
      } catch (error) {
        throw new DatasetError(
          `${path} line ${line}: not valid JSON (${(error as Error).message}): each line must hold one JSON object`,
          path,
          line,
        );
      }
      if (typeof row !== "object" || row === null || Array.isArray(row)) {
        const got = row === null ? "null" : Array.isArray(row) ? "an array" : `a ${typeof row}`;
        throw new DatasetError(
          `${path} line ${line}: expected a JSON object, got ${got}: each line must hold one row object`,
          path,
          line,
        );
      }
      rows.push(row);
      lines.push(line);
    });
  return Dataset.fromRows(rows, { source: path, path, lines });
}
