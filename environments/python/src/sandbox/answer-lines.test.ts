// The reader of the worker's answers holds at most its cap, whatever the code writes to the pipe.
import { describe, expect, it } from "vitest";
import { AnswerLines } from "./answer-lines.ts";

function reader(maxBytes: number) {
  const lines: string[] = [];
  let overflows = 0;
  const answers = new AnswerLines({
    maxBytes,
    onLine: (line) => lines.push(line),
    onOverflow: () => overflows++,
  });
  return { answers, lines, overflows: () => overflows };
}

describe("AnswerLines", () => {
  it("cuts lines however the stream is chunked, characters split between chunks included", () => {
    const { answers, lines } = reader(1024);
    const text = Buffer.from('{"a": "é"}\n{"b": 2}\n{"c": "→"}\n');
    // Cuts inside "é" (bytes 7-8) and "→" (bytes 28-30), at a newline, and just after one.
    const cuts = [0, 3, 8, 9, 11, 12, 20, 29, text.length];
    for (let i = 0; i + 1 < cuts.length; i++) answers.push(text.subarray(cuts[i], cuts[i + 1]));
    expect(lines).toEqual(['{"a": "é"}', '{"b": 2}', '{"c": "→"}']);
    expect(answers.bufferedBytes).toBe(0);
  });

  it("stops at the cap on a 200 MB line, holding no more than the cap, and reads nothing after", () => {
    const cap = 1024 * 1024;
    const { answers, lines, overflows } = reader(cap);
    answers.push(Buffer.from('{"ok": 1}\n'));
    const chunk = Buffer.alloc(64 * 1024, "x");
    let most = 0;
    for (let sent = 0; sent < 200 * 1024 * 1024; sent += chunk.length) {
      answers.push(chunk);
      most = Math.max(most, answers.bufferedBytes);
    }
    answers.push(Buffer.from('\n{"ok": 2}\n'));
    expect(most).toBeLessThanOrEqual(cap);
    expect(overflows()).toBe(1);
    expect(lines).toEqual(['{"ok": 1}']);
  });

  it("stops at a line past the cap that arrives in one chunk", () => {
    const { answers, lines, overflows } = reader(100);
    answers.push(Buffer.from(`${"y".repeat(101)}\n{"ok": 1}\n`));
    expect(overflows()).toBe(1);
    expect(lines).toEqual([]);
  });
});
