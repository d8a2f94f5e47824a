/**
 * Where a command writes: stdout for results, stderr for progress and messages, whether stderr is a
 * terminal (progress redrawn in place only then) and whether each stream gets colour. Passed to
 * commands so tests can capture it.
 *
 * Colour goes to terminals only: never into a pipe or a file (logs and scripts read plain text),
 * never with NO_COLOR set (no-color.org); FORCE_COLOR (any value but "0" or "false") turns it on
 * where there is no terminal, as in CI.
 */
import pc from "picocolors";

/** The colours vf uses, each a no-op when colour is off. */
export type Palette = ReturnType<typeof pc.createColors>;

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

/** Whether a stream should get colour, given the environment's NO_COLOR, FORCE_COLOR and TERM. */
export function wantsColour(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force !== "false";
  return Boolean(stream.isTTY) && env.TERM !== "dumb";
}

/** The palette for one stream: real colours, or functions that return their text unchanged. */
export function palette(enabled: boolean): Palette {
  return pc.createColors(enabled);
}

// Status lines are plain text, so a code point is a column (the bar's blocks included).
function cut(line: string, width: number): string {
  const chars = [...line];
  return chars.length <= width ? line : `${chars.slice(0, width - 1).join("")}…`;
}
