/**
 * Where a command writes: stdout for results, stderr for progress and messages, and whether stderr
 * is a terminal (progress bars and colour only then). Passed to commands so tests can capture it.
 */
export interface Output {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Redraws one status line in place on stderr (terminals only); `null` ends the line. */
  status: (text: string | null) => void;
  /** True when stderr is an interactive terminal. */
  isTTY: boolean;
  /** Terminal width in columns. */
  columns: number;
}

export function processOutput(): Output {
  return {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    status: (text) => process.stderr.write(text === null ? "\n" : `\r\x1b[2K${text}`),
    isTTY: Boolean(process.stderr.isTTY) && process.env.TERM !== "dumb" && !process.env.CI,
    columns: process.stderr.columns || 100,
  };
}
