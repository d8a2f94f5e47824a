/**
 * metrics.jsonl: rows appended one line at a time, read back leniently (a run killed mid-write
 * leaves at most a partial last line, which is skipped), and cut back to a checkpoint's length on
 * resume so that every step appears once.
 */
import { appendFile, readFile, stat, truncate } from "node:fs/promises";
import { MetricsRow } from "./metrics-row.ts";

/** Appends rows to a metrics file. */
export class MetricsLog {
  private writes: Promise<void> = Promise.resolve();

  constructor(readonly path: string) {}

  /** Appends one row; rows are written in call order. */
  append(row: MetricsRow): Promise<void> {
    const line = `${JSON.stringify(row)}\n`;
    this.writes = this.writes.then(() => appendFile(this.path, line));
    return this.writes;
  }

  /** Resolves when every row appended so far is on disk. */
  flush(): Promise<void> {
    return this.writes;
  }

  /** The file's length in bytes (0 when it does not exist), after pending writes. */
  async size(): Promise<number> {
    await this.flush();
    return stat(this.path).then(
      (s) => s.size,
      () => 0,
    );
  }

  /** Cuts the file back to `bytes` (what it held when a checkpoint was taken). */
  async truncateTo(bytes: number): Promise<void> {
    await this.flush();
    const size = await this.size();
    if (size > bytes) await truncate(this.path, bytes);
  }
}

/** The rows of a metrics file, and how many lines were not rows (a killed run's partial last line). */
export async function readMetrics(path: string): Promise<{ rows: MetricsRow[]; skipped: number }> {
  const text = await readFile(path, "utf8");
  const rows: MetricsRow[] = [];
  let skipped = 0;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const parsed = MetricsRow.safeParse(parseJson(line));
    if (parsed.success) rows.push(parsed.data);
    else skipped += 1;
  }
  return { rows, skipped };
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined; // not JSON: counted as skipped by the caller
  }
}
