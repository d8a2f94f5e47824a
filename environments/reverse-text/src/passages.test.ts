import { describe, expect, it } from "vitest";
import { cutPassages, loadPassages } from "./passages.ts";

describe("cutPassages", () => {
  it("cuts sentences, clauses and word runs that fit the range", () => {
    const text = "Tom has 3 apples. He eats one, then buys 2 more.";
    expect(cutPassages(text, { minLength: 10, maxLength: 20 })).toEqual([
      "Tom has 3 apples.",
      "He eats one",
      "then buys 2 more.",
    ]);
    expect(cutPassages(text, { minLength: 40, maxLength: 60 })).toEqual([
      "Tom has 3 apples. He eats one, then buys 2 more.",
    ]);
    expect(
      cutPassages("A very long clause without any commas at all", { minLength: 5, maxLength: 12 }),
    ).toEqual(["A very long", "clause", "without any", "commas at"]);
  });

  it("writes typographic quotes as ASCII and leaves out other non-ASCII text", () => {
    expect(cutPassages("Janet’s ducks lay 16 eggs.", { minLength: 5, maxLength: 40 })).toEqual([
      "Janet's ducks lay 16 eggs.",
    ]);
    expect(cutPassages("It costs 5€ a day.", { minLength: 5, maxLength: 40 })).toEqual([]);
  });
});

describe("loadPassages", () => {
  it("gives thousands of distinct passages in the default range, each within it", async () => {
    const passages = await loadPassages({ minLength: 10, maxLength: 40 });
    expect(passages.length).toBeGreaterThan(5000);
    expect(new Set(passages).size).toBe(passages.length);
    for (const passage of passages) {
      expect(passage.length).toBeGreaterThanOrEqual(10);
      expect(passage.length).toBeLessThanOrEqual(40);
      expect(passage).toMatch(/^[\x20-\x7e]+$/);
    }
  });

  it("joins whole sentences for long ranges", async () => {
    const passages = await loadPassages({ minLength: 200, maxLength: 300 });
    expect(passages.length).toBeGreaterThan(200);
    expect(passages.some((p) => p.split(/[.?!] /).length >= 3)).toBe(true);
  });
});
