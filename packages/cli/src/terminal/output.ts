/**
 * Where a command writes: stdout for results, stderr for progress and messages, whether stderr is a
 * terminal (progress redrawn in place only then) and whether each stream gets colour. Passed to
 * commands so tests can capture it.
 */
import { type Palette, palette, wantsColour } from "./colour.ts";

export interface Output {
  out: (text: string) => void;
  err: (text: string) => void;
  /**
   * Redraws a status block in place on stderr (terminals only): one or more lines (joined by "\n"),
   * each cut to the terminal's width. Text written meanwhile goes above it. `null` keeps the block as
   * drawn and ends it, so the next status starts below.
   */
  status: (text: string | null) => void;
  /** True when stderr is an interactive terminal. */
  isTTY: boolean;
  /** Terminal width in columns. */
  columns: number;
  /** Terminal height in rows. */
  rows: number;
  /** Colours for stdout and for stderr (no-ops where colour is off). */
  colour: { out: Palette; err: Palette };
}

export function processOutput(): Output {
  const { stdout, stderr } = process;
  const isTTY = Boolean(stderr.isTTY) && process.env.TERM !== "dumb" && !process.env.CI;
  const columns = () => stderr.columns || 100;
  // Lines of the status block on screen; the cursor sits at the end of its last line.
  let shown = 0;
  let block: string | null = null;
  const clear = () => {
    if (shown === 0) return;
    stderr.write(`\r${shown > 1 ? `\x1b[${shown - 1}A` : ""}\x1b[J`);
    shown = 0;
  };
  const draw = () => {
    if (block === null) return;
    const width = Math.max(1, columns() - 1);
    const lines = block.split("\n").map((line) => cut(line, width));
    stderr.write(lines.join("\n"));
    shown = lines.length;
  };
  // stdout shares the screen with the block only when both are the terminal.
  const sharesScreen = Boolean(stdout.isTTY) && isTTY;
  return {
    out: (text) => {
      if (block !== null && sharesScreen) {
        clear();
        stdout.write(`${text}\n`);
        draw();
      } else {
        stdout.write(`${text}\n`);
      }
    },
    err: (text) => {
      clear();
      stderr.write(`${text}\n`);
      draw();
    },
    status: (text) => {
      if (!isTTY) return;
      if (text === null) {
        if (shown > 0) stderr.write("\n");
        shown = 0;
        block = null;
        return;
      }
      clear();
      block = text;
      draw();
    },
    isTTY,
    columns: columns(),
    rows: stderr.rows || 24,
    colour: { out: palette(wantsColour(stdout)), err: palette(wantsColour(stderr)) },
  };
}

// Status lines are plain text, so a code point is a column (the bar's blocks included).
function cut(line: string, width: number): string {
  const chars = [...line];
  return chars.length <= width ? line : `${chars.slice(0, width - 1).join("")}…`;
}
