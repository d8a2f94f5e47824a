/**
 * Display lines with a style the renderer maps to colour, and the writer that wraps text into them
 * by terminal columns (control characters a model wrote shown as "�", never sent to the terminal).
 */
import { printable, wrapToWidth } from "../../terminal/text-width.ts";

export interface StyledLine {
  text: string;
  /** How the renderer should show the line. */
  style: "heading" | "role" | "body" | "tool" | "dim" | "error";
}

/** Appends `text` wrapped to the width (less the indent), each line indented. */
export type Push = (style: StyledLine["style"], text: string, indent?: string) => void;

/** A list of lines and the `push` that fills it, wrapping at `width` columns. */
export function lineWriter(width: number): { lines: StyledLine[]; push: Push } {
  const lines: StyledLine[] = [];
  const push: Push = (style, text, indent = "") => {
    for (const line of wrapToWidth(printable(text), Math.max(20, width - indent.length)))
      lines.push({ style, text: indent + line });
  };
  return { lines, push };
}

/** A number as the viewer shows it: integers as they are, others to three decimals. */
export function fmt(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(3);
}
