import { describe, expect, it } from "vitest";
import { lcsRatio } from "./lcs-ratio.ts";

describe("lcsRatio", () => {
  it("is 1 for equal texts and 0 for texts with nothing in common", () => {
    expect(lcsRatio("olleh", "olleh")).toBe(1);
    expect(lcsRatio("", "")).toBe(1);
    expect(lcsRatio("abc", "xyz")).toBe(0);
    expect(lcsRatio("", "abc")).toBe(0);
  });

  it("counts the longest common subsequence, not only common blocks", () => {
    expect(lcsRatio("kitten", "sitting")).toBeCloseTo(8 / 13); // "ittn"
    expect(lcsRatio("abcd", "acbd")).toBeCloseTo(6 / 8); // "abd" or "acd"
    // "lo ol"; difflib's block matching (verifiers' ratio) finds only 2 matches here: 4/22.
    expect(lcsRatio("hello world", "dlrow olleh")).toBeCloseTo(10 / 22);
  });

  it("is symmetric and counts characters, not UTF-16 units", () => {
    expect(lcsRatio("abcxyz", "xyzabc")).toBe(lcsRatio("xyzabc", "abcxyz"));
    expect(lcsRatio("a😀b", "a😀c")).toBeCloseTo(4 / 6);
  });

  // Quadratic in the longer text, this would outlast the test's time limit by minutes.
  it("handles a long reply against a short reference", () => {
    expect(lcsRatio("x".repeat(100_000), "yxy")).toBeCloseTo(2 / 100_003);
  });
});
