import { describe, expect, it } from "vitest";
import { exactMatch, normalizeAnswer, tokenF1 } from "./squad-score.ts";

describe("SQuAD scores", () => {
  it("normalise case, punctuation, articles and whitespace as the official script does", () => {
    expect(normalizeAnswer("The  Denver Broncos!")).toBe("denver broncos");
    expect(normalizeAnswer("an apple, a day")).toBe("apple day");
    expect(normalizeAnswer("U.S.-based")).toBe("usbased");
    expect(normalizeAnswer("theory")).toBe("theory");
  });

  it("take the best exact match over the references", () => {
    expect(exactMatch("the Denver Broncos.", ["Carolina Panthers", "Denver Broncos"])).toBe(1);
    expect(exactMatch("Broncos", ["Denver Broncos"])).toBe(0);
  });

  it("give token F1 its partial credit, best over the references", () => {
    // 1 shared token: precision 1/1, recall 1/2.
    expect(tokenF1("Broncos", ["Denver Broncos"])).toBeCloseTo(2 / 3);
    // Repeated tokens count once per occurrence in the reference.
    expect(tokenF1("paris paris", ["paris"])).toBeCloseTo(2 / 3);
    expect(tokenF1("It was in October 1973", ["1973", "October 1973"])).toBeCloseTo((2 * 0.4 * 1) / 1.4); // P 2/5, R 2/2
    expect(tokenF1("nothing alike", ["Denver Broncos"])).toBe(0);
    expect(tokenF1("", ["Denver Broncos"])).toBe(0);
  });
});
