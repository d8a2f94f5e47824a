import { describe, expect, it } from "vitest";
import { extractBoxedAnswer } from "./boxed-answer.ts";

describe("extractBoxedAnswer", () => {
  it.each([
    ["The answer is \\boxed{42}.", "42"],
    ["\\boxed{\\frac{1}{2}}", "\\frac{1}{2}"],
    ["nested \\boxed{\\sqrt{\\frac{a}{b}} + {c}} done", "\\sqrt{\\frac{a}{b}} + {c}"],
    ["first \\boxed{1} then \\boxed{2}", "2"],
    ["\\fbox{7}", "7"],
    ["\\boxed {3}", "3"],
    ["\\boxed{}", ""],
  ])("%s → %s", (text, expected) => {
    expect(extractBoxedAnswer(text)).toBe(expected);
    expect(extractBoxedAnswer(text, { strict: true })).toBe(expected);
  });

  it("falls back to the text without a box, or to null when strict", () => {
    expect(extractBoxedAnswer("just 42")).toBe("just 42");
    expect(extractBoxedAnswer("just 42", { strict: true })).toBeNull();
  });

  it("treats an unclosed last box as no answer", () => {
    const truncated = "\\boxed{1} and finally \\boxed{\\frac{2}{3}";
    expect(extractBoxedAnswer(truncated)).toBe(truncated);
    expect(extractBoxedAnswer(truncated, { strict: true })).toBeNull();
  });
});
