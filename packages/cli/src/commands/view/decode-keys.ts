/** Turns bytes read from a terminal in raw mode into the viewer's keys. */
import type { Key } from "./viewer-model.ts";

const SEQUENCES: Record<string, Key> = {
  "\x1b[A": "up",
  "\x1b[B": "down",
  "\x1b[C": "enter",
  "\x1b[D": "back",
  "\x1bOA": "up",
  "\x1bOB": "down",
  "\x1b[5~": "pageup",
  "\x1b[6~": "pagedown",
  "\x1b[H": "home",
  "\x1b[F": "end",
  "\x1b[1~": "home",
  "\x1b[4~": "end",
  "\t": "next-section",
  "\x1b[Z": "previous-section",
  "\r": "enter",
  "\n": "enter",
  "\x1b": "back",
  "\x7f": "backspace",
  "\b": "backspace",
  "\x03": "quit",
};

export function decodeKeys(data: string): Key[] {
  const keys: Key[] = [];
  let i = 0;
  while (i < data.length) {
    const match = Object.keys(SEQUENCES)
      .filter((seq) => data.startsWith(seq, i))
      .sort((a, b) => b.length - a.length)[0];
    if (match) {
      keys.push(SEQUENCES[match]!);
      i += match.length;
      continue;
    }
    const char = String.fromCodePoint(data.codePointAt(i)!);
    if (char >= " ") keys.push({ char });
    i += char.length;
  }
  return keys;
}
