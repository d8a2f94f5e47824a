import { describe, expect, it } from "vitest";
import { extractHashAnswer } from "./hash-answer.ts";

describe("extractHashAnswer", () => {
  it("reads the final answer of a GSM8K solution", () => {
    const solution =
      "Janet sells 16 - 3 - 4 = <<16-3-4=9>>9 duck eggs a day.\nShe makes 9 * 2 = $<<9*2=18>>18 every day.\n#### 18";
    expect(extractHashAnswer(solution)).toBe("18");
  });

  it("stops at the end of the marker's line and uses the last marker", () => {
    expect(extractHashAnswer("#### 1\nthen\n####  70,000 \nthanks")).toBe("70,000");
  });

  it("is null without a marker or without anything after it", () => {
    expect(extractHashAnswer("the answer is 18")).toBeNull();
    expect(extractHashAnswer("####   ")).toBeNull();
  });
});
