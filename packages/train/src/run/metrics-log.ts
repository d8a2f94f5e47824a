/**
 * metrics.jsonl: rows appended one line at a time, and read back leniently (a run killed mid-write
 * leaves at most a partial last line, which is skipped). Each checkpoint keeps a copy, which a
 * resumed run starts from, so every step appears once.
 */
import { appendFile, readFile } from "node:fs/promises";
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
