/**
 * Text measured the way a terminal shows it: in columns, where a CJK character or an emoji takes
 * two, a combining mark none, and ANSI colour codes nothing. Full-screen views (`vf view`) lay out
 * every line with these, so no line is wider than the terminal and none wraps.
 */
import cliTruncate from "cli-truncate";
import stringWidth from "string-width";

/** Columns `text` takes on a terminal (colour codes included or not). */
export function visibleWidth(text: string): number {
  return stringWidth(text);
}

/** `text` cut to at most `width` columns, ending in "…" when cut; colour codes are kept and closed. */
export function fitWidth(text: string, width: number): string {
  if (width <= 0) return "";
  return stringWidth(text) <= width ? text : cliTruncate(text, width, { position: "end" });
}

/** `text` cut or padded with spaces to exactly `width` columns. */
export function padToWidth(text: string, width: number): string {
  const fitted = fitWidth(text, width);
  return fitted + " ".repeat(Math.max(0, width - stringWidth(fitted)));
}

/**
 * Plain text as printable characters: tabs become spaces and other control characters (a model's
 * stray `\r` or escape sequence would move the cursor or restyle the screen) become "�". Newlines stay.
 */
export function printable(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/\t/g, "    ")
    .replace(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/g, "�");
}

/** Splits plain text into lines of at most `width` columns, breaking at spaces where it can. */
export function wrapToWidth(text: string, width: number): string[] {
  const out: string[] = [];
  for (const paragraph of text.split("\n")) {
    // Printable ASCII is one column a character: the common case, measured by length.
    if (/^[\x20-\x7e]*$/.test(paragraph)) out.push(...wrapAscii(paragraph, width));
    else out.push(...wrapGraphemes(paragraph, width));
  }
  return out;
}

function wrapAscii(paragraph: string, width: number): string[] {
  const out: string[] = [];
  let rest = paragraph;
  while (rest.length > width) {
    let cut = rest.lastIndexOf(" ", width);
    if (cut <= 0) cut = width;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^ /, "");
  }
  out.push(rest);
  return out;
}

function wrapGraphemes(paragraph: string, width: number): string[] {
  const out: string[] = [];
  let line = "";
  let lineWidth = 0;
  for (const { segment } of new Intl.Segmenter().segment(paragraph)) {
    const w = stringWidth(segment);
    if (lineWidth + w > width && line !== "") {
      // Break after the line's last space when it has one, else in the middle of the word.
      const breakAt = line.lastIndexOf(" ") + 1;
      if (breakAt > 0) {
        out.push(line.slice(0, breakAt - 1));
        line = line.slice(breakAt);
      } else {
        out.push(line);
        line = "";
      }
      lineWidth = stringWidth(line);
    }
    line += segment;
    lineWidth += w;
  }
  out.push(line);
  return out;
}
