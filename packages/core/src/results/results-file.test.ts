import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readResultLines, repairTail } from "./results-file.ts";

async function fileWith(text: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), "vf-lines-")), "results.jsonl");
  await writeFile(path, text);
  return path;
}

describe("readResultLines", () => {
  it("numbers lines from 1, skips blank ones and reports a torn last line", async () => {
    const path = await fileWith('{"a":1}\n\n{"a":2}\r\n{"a":3, "b"');
    const { lines, torn } = await readResultLines(path);
    expect(lines).toEqual([
      { line: 1, text: '{"a":1}' },
      { line: 3, text: '{"a":2}' },
    ]);
    expect(torn).toEqual({ line: 4, text: '{"a":3, "b"' });
  });

  it("counts a whole last row that only lacks its newline", async () => {
    const { lines, torn } = await readResultLines(await fileWith('{"a":1}\n{"a":2}'));
    expect(lines.map((l) => l.text)).toEqual(['{"a":1}', '{"a":2}']);
    expect(torn).toBeNull();
  });
});

describe("repairTail", () => {
  it("cuts off a torn last line", async () => {
    const path = await fileWith('{"a":1}\n{"a":2}\n{"a":3, "b"');
    expect(await repairTail(path)).toBe("truncated");
    expect(await readFile(path, "utf8")).toBe('{"a":1}\n{"a":2}\n');
  });

  it("cuts a file that is one torn line down to nothing", async () => {
    const path = await fileWith('{"a":');
    expect(await repairTail(path)).toBe("truncated");
    expect(await readFile(path, "utf8")).toBe("");
  });

  it("ends a whole last row with its newline", async () => {
    const path = await fileWith('{"a":1}\n{"a":2}');
    expect(await repairTail(path)).toBe("terminated");
    expect(await readFile(path, "utf8")).toBe('{"a":1}\n{"a":2}\n');
  });

  it("leaves a clean file, an empty one and a missing one alone", async () => {
    const clean = await fileWith('{"a":1}\n');
    expect(await repairTail(clean)).toBe("intact");
    expect(await readFile(clean, "utf8")).toBe('{"a":1}\n');
    expect(await repairTail(await fileWith(""))).toBe("intact");
    expect(await repairTail(join(tmpdir(), "vf-no-such-dir", "results.jsonl"))).toBe("intact");
  });

  it("finds the last newline even when the torn line is longer than one read chunk", async () => {
    const long = `{"text":"${"é".repeat(70_000)}`;
    const path = await fileWith(`{"a":1}\n${long}`);
    expect(await repairTail(path)).toBe("truncated");
    expect(await readFile(path, "utf8")).toBe('{"a":1}\n');
  });
});
