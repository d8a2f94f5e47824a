/**
 * The worker's answer stream cut into lines. The code runs in the worker's process and can write to
 * the answer descriptor too, so the stream is untrusted: a line may not grow past `maxBytes` (the
 * reader then stops and says so, keeping at most that much), and each byte is scanned for the
 * newline once, however the stream is chunked.
 */

/** The cap and what to call with each line, or on passing the cap. */
export interface AnswerLinesOptions {
  /** The longest line kept, in bytes; a longer one is an overflow. */
  maxBytes: number;
  /** Called with each whole line, without its newline. */
  onLine: (line: string) => void;
  /** Called once when a line passes `maxBytes`; nothing is read after it. */
  onOverflow: () => void;
}

/** Splits a stream of chunks into lines of at most `maxBytes`. */
export class AnswerLines {
  private parts: Buffer[] = [];
  private partBytes = 0;
  private overflowed = false;

  constructor(private readonly options: AnswerLinesOptions) {}

  /** Bytes held for the line not yet ended; never more than `maxBytes`. */
  get bufferedBytes(): number {
    return this.partBytes;
  }

  /** Takes the next chunk of the stream. */
  push(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(10); end >= 0 && !this.overflowed; end = chunk.indexOf(10, start)) {
      if (this.partBytes + end - start > this.options.maxBytes) {
        this.overflow();
        return;
      }
      const line =
        this.partBytes === 0
          ? chunk.toString("utf8", start, end)
          : Buffer.concat([...this.parts, chunk.subarray(start, end)]).toString("utf8");
      this.parts = [];
      this.partBytes = 0;
      this.options.onLine(line);
      start = end + 1;
    }
    if (this.overflowed || start === chunk.length) return;
    if (this.partBytes + chunk.length - start > this.options.maxBytes) {
      this.overflow();
      return;
    }
    // A copy: a view would keep the stream's whole read buffer alive for a few bytes of it.
    this.parts.push(Buffer.from(chunk.subarray(start)));
    this.partBytes += chunk.length - start;
  }

  private overflow(): void {
    this.overflowed = true;
    this.parts = [];
    this.partBytes = 0;
    this.options.onOverflow();
  }
}
