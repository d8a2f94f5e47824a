/**
 * results.jsonl as lines of text: splitting it into numbered lines and dealing with the last line a
 * crash may have cut short. What the lines mean is read-run.ts's business, not this file's.
 */
import { open, readFile } from "node:fs/promises";

/** One non-empty line of results.jsonl; `line` is 1-based. */
export interface RawLine {
  line: number;
  text: string;
}

/** The lines of a results file, and the torn last line a crash left, if any. */
export interface ResultLines {
  /** Every complete non-empty line, in file order. */
  lines: RawLine[];
  /** A last line with no newline that is not valid JSON: a write cut short. Never counted. */
  torn: RawLine | null;
}

/** What `repairTail` did to the end of the file. */
export type TailRepair = "intact" | "truncated" | "terminated";

/**
 * The lines of a results file. A last line without its newline still counts when it parses (the
 * crash came between the row and its newline); otherwise it is reported as `torn`.
 */
export async function readResultLines(path: string): Promise<ResultLines> {
  const text = await readFile(path, "utf8");
  const parts = text.split("\n");
  // After the final "\n" split leaves "", or the unterminated tail.
  const tail = parts.pop() ?? "";
  const lines: RawLine[] = [];
  parts.forEach((part, i) => {
    const line = part.endsWith("\r") ? part.slice(0, -1) : part;
    if (line.trim() !== "") lines.push({ line: i + 1, text: line });
  });
  let torn: RawLine | null = null;
  if (tail.trim() !== "") {
    const last = { line: parts.length + 1, text: tail };
    if (isJson(tail)) lines.push(last);
    else torn = last;
  }
  return { lines, torn };
}

/**
 * Makes the file end on a line boundary before anything is appended, so a new row never glues onto a
 * torn one: a torn last line is cut off ("truncated"); a whole row that only lacks its newline gets one
 * ("terminated"). A missing or empty file is "intact".
 */
export async function repairTail(path: string): Promise<TailRepair> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, "r+");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "intact";
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return "intact";
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    if (last[0] === 0x0a) return "intact";
    const start = await lastNewlineEnd(handle, size);
    const tail = Buffer.alloc(size - start);
    await handle.read(tail, 0, tail.length, start);
    if (isJson(tail.toString("utf8"))) {
      await handle.write("\n", size);
      await handle.sync();
      return "terminated";
    }
    await handle.truncate(start);
    await handle.sync();
    return "truncated";
  } finally {
    await handle.close();
  }
}

// The offset just after the last "\n" before `size` (0 when there is none), read backwards in chunks
// so a large file is not loaded whole. UTF-8 never uses byte 0x0a inside a multi-byte character.
async function lastNewlineEnd(handle: Awaited<ReturnType<typeof open>>, size: number): Promise<number> {
  const chunk = Buffer.alloc(64 * 1024);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - chunk.length);
    await handle.read(chunk, 0, end - start, start);
    const at = chunk.subarray(0, end - start).lastIndexOf(0x0a);
    if (at >= 0) return start + at + 1;
    end = start;
  }
  return 0;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
