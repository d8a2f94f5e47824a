import { describe, expect, it } from "vitest";
import { extractBoxedAnswer } from "./boxed-answer.ts";
import { MaybeThinkParser } from "./maybe-think-parser.ts";

describe("MaybeThinkParser", () => {
  const parser = new MaybeThinkParser();

  it("keeps text without thinking tags as it is", () => {
    expect(parser.parse("This is a test string without thinking tags")).toBe(
      "This is a test string without thinking tags",
    );
  });

  it("keeps the text after </think> when there is one", () => {
    expect(parser.parse("<think>This is thinking</think> This is the final answer")).toBe(
      "This is the final answer",
    );
  });

  it("parses the last assistant message either way", () => {
    expect(
      parser.parseAnswer([
        { role: "user", content: "What is 2+2?" },
        { role: "assistant", content: "The answer is 4" },
      ]),
    ).toBe("The answer is 4");
    expect(
      parser.parseAnswer([
        { role: "user", content: "What is 2+2?" },
        { role: "assistant", content: "<think>thinking</think>The answer is 4" },
      ]),
    ).toBe("The answer is 4");
  });

  it("applies the extract function to what remains", () => {
    const strictBoxed = new MaybeThinkParser({
      extract: (text) => extractBoxedAnswer(text, { strict: true }),
    });
    expect(strictBoxed.parse("<think>maybe \\boxed{3}</think> so \\boxed{4}")).toBe("4");
    expect(strictBoxed.parse("<think>maybe \\boxed{3}</think> no box")).toBeNull();
    expect(strictBoxed.parse("\\boxed{5}")).toBe("5");
  });

  it("expects no particular format", () => {
    expect(parser.formatScore([{ role: "assistant", content: "no tags" }])).toBe(1);
  });
});
