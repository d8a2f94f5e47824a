import { describe, expect, it } from "vitest";
import { fitWidth, printable, visibleWidth, wrapToWidth } from "./text-width.ts";

describe("text measured in terminal columns", () => {
  it("counts a CJK character as two columns and colour codes as none", () => {
    expect(visibleWidth("船")).toBe(2);
    expect(visibleWidth("\x1b[7mabc\x1b[0m")).toBe(3);
  });

  it("cuts by columns with an ellipsis, keeping colour codes closed", () => {
    expect(fitWidth("abcdef", 4)).toBe("abc…");
    expect(fitWidth("船船船船", 5)).toBe("船船…");
    const cut = fitWidth("\x1b[31mred text that is long\x1b[39m", 8);
    expect(visibleWidth(cut)).toBe(8);
    expect(cut.endsWith("\x1b[39m")).toBe(true);
    expect(fitWidth("short", 80)).toBe("short");
  });

  it("wraps at spaces, and wide text by columns", () => {
    expect(wrapToWidth("the quick brown fox", 10)).toEqual(["the quick", "brown fox"]);
    const wide = wrapToWidth("空心的船 ".repeat(10).trim(), 12);
    expect(wide.every((line) => visibleWidth(line) <= 12)).toBe(true);
    expect(wide.join(" ")).toBe("空心的船 ".repeat(10).trim());
  });

  it("never lets a model's control characters reach the terminal", () => {
    expect(printable("a\x1b[2Jb\r\nc\td\x07")).toBe("a�[2Jb\nc    d�");
  });
});
