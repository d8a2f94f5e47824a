import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { extractHashAnswer } from "../parsers/hash-answer.ts";
import { answersEquivalent, extractFinalAnswer, normalizeAnswer } from "./math-answer.ts";

describe("extractFinalAnswer", () => {
  it.each([
    ["The answer is \\boxed{\\frac{1}{2}}.", "\\frac{1}{2}"],
    ["first \\boxed{1}, then \\boxed{ 2 }", "2"],
    ["She makes $18.\n#### 18", "18"],
    ["\\boxed{5} beats #### 6", "5"],
    ["So the total is $1,250.", "1,250"],
    ["It was -3 degrees.", "-3"],
    ["Between 3-5 items, so 5.", "5"],
    ["That's 2.5 hours or 150 minutes", "150"],
    ["a ratio of 3/4", "3/4"],
    ["only .5 left", ".5"],
  ])("%j → %j", (text, expected) => {
    expect(extractFinalAnswer(text)).toBe(expected);
  });

  it("falls back from an empty box to the rest, and is null without any number", () => {
    expect(extractFinalAnswer("\\boxed{} so 7")).toBe("7");
    expect(extractFinalAnswer("I do not know.")).toBeNull();
    expect(extractFinalAnswer("")).toBeNull();
  });
});

describe("answersEquivalent: numbers", () => {
  it.each([
    ["18", "18"],
    ["3.50", "3.5"],
    ["3.5", "7/2"],
    ["0.5", "1/2"],
    ["0.5", "\\frac{1}{2}"],
    ["\\dfrac{1}{2}", ".5"],
    ["\\tfrac{3}{4}", "0.75"],
    ["\\frac12", "0.5"],
    ["\\frac{2}{4}", "1/2"],
    ["-\\frac{1}{2}", "-0.5"],
    ["\\frac{-1}{2}", "-1/2"],
    ["-10", "-10.0"],
    ["−3", "-3"],
    ["+4", "4"],
    ["1,000", "1000"],
    ["1,450,000", "1450000"],
    ["1{,}000", "1000"],
    ["1\\,000", "1000"],
    ["$18", "18"],
    ["\\$18.00", "18"],
    ["€5", "5"],
    ["£2,000", "2000"],
    ["-$5", "-5"],
    ["50%", "50"],
    ["50\\%", "50"],
    ["18 dollars", "18"],
    ["5 cm", "5"],
    ["5cm", "5"],
    ["5\\text{ km}", "5"],
    ["\\text{5 km/h}", "5"],
    ["10 m^2", "10"],
    ["60 miles per hour", "60"],
    ["90^\\circ", "90"],
    ["90°", "90"],
    ["18.", "18"],
    ["18 dollars.", "18"],
    ["$5$", "5"],
    ["$$\\frac{1}{4}$$", "0.25"],
    ["\\(12\\)", "12"],
    ["\\boxed{12}", "12"],
    ["x = 5", "5"],
    ["007", "7"],
  ])("%j = %j", (a, b) => {
    expect(answersEquivalent(a, b)).toBe(true);
    expect(answersEquivalent(b, a)).toBe(true);
  });

  it.each([
    ["1", "2"],
    ["1/3", "0.33"],
    ["\\frac{1}{3}", "0.5"],
    ["-5", "5"],
    ["2x", "2"],
    ["1,2", "12"],
    ["18 dollars and 50 cents", "18"],
    ["5 apples and 3 oranges", "5"],
    ["1/0", "1"],
    ["", ""],
    ["", "0"],
  ])("%j ≠ %j", (a, b) => {
    expect(answersEquivalent(a, b)).toBe(false);
  });

  it("compares exactly, even beyond floating point", () => {
    expect(answersEquivalent("12345678901234567890", "12345678901234567891")).toBe(false);
    expect(answersEquivalent("0.1", "1/10")).toBe(true);
    expect(answersEquivalent("0.30000000000000004", "0.3")).toBe(false);
  });
});

describe("answersEquivalent: symbolic answers", () => {
  it.each([
    ["x + 1", "x+1"],
    ["\\frac{\\pi}{2}", "\\dfrac{\\pi}{2}"],
    ["\\left( 1, 2 \\right)", "(1,2)"],
    ["2\\sqrt{3}", "2 \\sqrt 3"],
    ["3\\,\\pi", "3\\pi"],
    ["$\\{1, 2\\}$", "\\{1,2\\}"],
    ["\\text{(B)}", "B"],
    ["\\text{yes}", "yes"],
  ])("%j = %j", (a, b) => {
    expect(answersEquivalent(a, b)).toBe(true);
  });

  it.each([
    ["x + 1", "1 + x"],
    ["\\sqrt{2}", "\\sqrt{3}"],
    ["Yes", "No"],
  ])("%j ≠ %j", (a, b) => {
    expect(answersEquivalent(a, b)).toBe(false);
  });
});

describe("normalizeAnswer", () => {
  it.each([
    ["3.50", "3.5"],
    ["\\frac{7}{2}", "3.5"],
    ["$1,000.00", "1000"],
    ["1/3", "1/3"],
    ["-\\frac{2}{6}", "-1/3"],
    ["-0.125", "-0.125"],
    ["-0", "0"],
    ["\\frac{1}{8}", "0.125"],
    [" x + 1 ", "x+1"],
    ["\\dfrac{a}{b}", "\\frac{a}{b}"],
  ])("%j → %j", (answer, expected) => {
    expect(normalizeAnswer(answer)).toBe(expected);
  });
});

describe("GSM8K answers", () => {
  // A few rows of the GSM8K test split (MIT licence, OpenAI): plain, money, thousands, negatives.
  const rows = readFileSync(new URL("./math-answer.fixture.jsonl", import.meta.url), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { question: string; answer: string });

  it("reads the reference after #### on every row", () => {
    expect(rows.map((row) => extractHashAnswer(row.answer))).toEqual([
      "18",
      "70000",
      "2,125",
      "-10",
      "1,450,000",
      "-3",
    ]);
  });

  it.each([["\\boxed{%s}"], ["The answer is %s."], ["Reasoning...\n#### %s"], ["So it comes to $%s"]])(
    "accepts the reference written as %j",
    (template) => {
      for (const row of rows) {
        const reference = extractHashAnswer(row.answer)!;
        const completion = template.replace("%s", reference);
        expect(answersEquivalent(extractFinalAnswer(completion)!, reference), completion).toBe(true);
      }
    },
  );

  it("accepts the value with or without thousands separators, and rejects off-by-one", () => {
    for (const row of rows) {
      const reference = extractHashAnswer(row.answer)!;
      const plain = reference.replace(/,/g, "");
      expect(answersEquivalent(plain, reference)).toBe(true);
      expect(answersEquivalent(String(Number(plain) + 1), reference)).toBe(false);
    }
  });

  it("finds the final answer of a whole GSM8K solution", () => {
    for (const row of rows) {
      expect(answersEquivalent(extractFinalAnswer(row.answer)!, extractHashAnswer(row.answer)!)).toBe(true);
    }
  });
});
