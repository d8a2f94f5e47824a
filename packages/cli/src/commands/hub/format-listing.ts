/** How Hub data prints in the terminal: tables with a header row, byte sizes, short hashes. */

/**
 * The lines of a table; the last column is not padded, so long descriptions do not add trailing
 * spaces.
 *
 * @example textTable(["ID", "VERSION"], [["ada/echo", "1.0.0"]]) // ["ID        VERSION", "ada/echo  1.0.0"]
 */
export function textTable(header: string[], rows: string[][]): string[] {
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((row) => (row[column] ?? "").length)));
  return all.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join("  ")
      .trimEnd(),
  );
}

/** A byte count for people: `812 B`, `3.2 kB`, `1.5 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** The first 12 digits of a content hash, enough to tell versions apart and to pass as `@ref`. */
export function shortHash(hash: string): string {
  return hash.slice(0, 12);
}
