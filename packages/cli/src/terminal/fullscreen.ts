/**
 * A command's output in the terminal's alternate screen (`vf eval -f`, verifiers' fullscreen): a
 * title line, the status block (the progress board) below it, and the lines written meanwhile in a
 * log under that. Closing gives the user's screen back as it was and writes those lines after it,
 * so nothing printed in the alternate screen is lost. The screen is given back however the process
 * ends: a close, an error (the caller's `finally`), a second Ctrl-C or any other exit.
 */
import type { Output } from "./output.ts";
import { fitWidth, printable } from "./text-width.ts";

const ENTER = "\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J";
const LEAVE = "\x1b[?25h\x1b[?1049l";
// Title, a blank line, the board, a blank line; the log has what is left, at least this much.
const MIN_LOG_ROWS = 3;
// Lines of the log kept for the screen (all of them are kept to be written after it).
const LOG_KEPT = 1000;

export interface Fullscreen {
  /** Where the command writes while the screen is up: its lines are shown and kept for later. */
  io: Output;
  /**
   * Shows that the command is done and waits for q, Enter, Esc or Ctrl-C (or `signal`), so the
   * final board can be read; at once when stdin is not a terminal.
   */
  waitForExit(signal: AbortSignal): Promise<void>;
  /** Gives the screen back and writes what was written meanwhile to `base`, in order, then the last board. */
  close(): void;
}

/** Opens the alternate screen on stderr; `title` heads it while the command runs. */
export function openFullscreen(base: Output, title: string): Fullscreen {
  const stderr = process.stderr;
  const written: Array<{ to: "out" | "err"; text: string }> = [];
  const log: string[] = [];
  let block: string[] = [];
  let heading = title;
  let open = true;

  const size = () => ({ columns: stderr.columns || base.columns, rows: stderr.rows || base.rows });
  const draw = () => {
    if (!open) return;
    const { columns, rows } = size();
    const top = [heading, "", ...block, ""];
    const logRows = Math.max(0, rows - top.length);
    const lines = [...top, ...log.slice(-logRows)].slice(0, rows);
    stderr.write(`\x1b[H${lines.map((line) => `${fitWidth(line, columns)}\x1b[K`).join("\r\n")}\x1b[J`);
  };
  const keep = (to: "out" | "err", text: string) => {
    written.push({ to, text });
    log.push(...printable(text).split("\n"));
    if (log.length > LOG_KEPT * 2) log.splice(0, log.length - LOG_KEPT);
    draw();
  };
  const close = () => {
    if (!open) return;
    open = false;
    stderr.off("resize", draw);
    process.off("exit", close);
    stderr.write(LEAVE);
    for (const { to, text } of written.splice(0)) base[to](text);
    // The last board stays below them, as the live display leaves it.
    if (block.length > 0) base.err(block.join("\n"));
  };

  stderr.write(ENTER);
  stderr.on("resize", draw);
  process.on("exit", close);
  draw();

  const io: Output = {
    out: (text) => keep("out", text),
    err: (text) => keep("err", text),
    status: (text) => {
      // null ends the block: it stays on screen as drawn last.
      if (text === null) return;
      block = text.split("\n");
      draw();
    },
    isTTY: true,
    columns: size().columns,
    rows: Math.max(1, size().rows - 4 - MIN_LOG_ROWS),
    colour: base.colour,
  };

  return {
    io,
    close,
    waitForExit: async (signal) => {
      const stdin = process.stdin;
      if (!stdin.isTTY || signal.aborted) return;
      heading = `${title} · done: press q or Enter to leave`;
      draw();
      stdin.setRawMode(true);
      stdin.resume();
      try {
        await new Promise<void>((resolve) => {
          const leave = () => {
            stdin.off("data", onKey);
            signal.removeEventListener("abort", leave);
            resolve();
          };
          // Raw mode: Ctrl-C arrives as a byte, not a signal. An arrow key starts with Esc too, so
          // only a lone Esc leaves.
          const onKey = (data: Buffer) => {
            const keys = data.toString();
            if (/[qQ\r\n\x03]/.test(keys) || keys === "\x1b") leave();
          };
          stdin.on("data", onKey);
          signal.addEventListener("abort", leave);
        });
      } finally {
        stdin.setRawMode(false);
        stdin.pause();
      }
    },
  };
}
